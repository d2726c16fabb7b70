/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Dev server only: patient link paths get patient.html, as the server's web plugin does in production
 * (there with the exact instrument slugs; here any slug followed by a 43-character link token).
 */
const patientLinkPath = /^\/(patients\/[a-z0-9]+\/[A-Za-z0-9_-]{43}(\/[^/?]+)?|customform\/[^/?]+\/surveryform)\/?(\?|$)/i;
const patientPages: Plugin = {
  name: 'pathwell-patient-pages',
  configureServer(server) {
    server.middlewares.use((request, _response, next) => {
      if (request.method === 'GET' && request.url && patientLinkPath.test(request.url)) request.url = '/patient.html';
      next();
    });
  },
};

export default defineConfig({
  root,
  plugins: [react(), patientPages],
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Mantine and React in one chunk shared by every lazy page; pages stay small.
    chunkSizeWarningLimit: 700,
    // Two pages: the staff app and the patient questionnaire renderer, which shares no staff code.
    rollupOptions: { input: { main: `${root}/index.html`, patient: `${root}/patient.html` } },
  },
  test: {
    name: 'web',
    root,
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 15_000,
  },
});
