/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Dev server only: patient link paths get patient.html, as the server's web plugin does in production
 * (there with the exact instrument slugs; here any slug followed by a 43-character link token).
 */
const patientLinkPath =
  /^\/(patients\/[a-z0-9]+\/[A-Za-z0-9_-]{43}(\/[^/?]+){0,2}|customform\/[^/?]+\/surveryform|patients\/intake(complete|notavailable)|(home)?checkincomplete|thankyou|exit|newpatientpaperwork(drchorono)?(\/[^/?]+)?|clinical\/healthhistoryform|patients\/[^/?]+\/appointments\/[^/?]+\/(healthhistoryforms(\/[^/?]+)?|customscreeners)|patients\/[^/?]+\/(clientinfo|payment)\/[^/?]+|patients\/[^/?]+\/clientenquiry\/[^/?]+\/client-enquiry|patients\/[0-9a-f-]{36}\/appointments\/[0-9a-f-]{36}\/patient-checkin|patients\/closeaccount\/[0-9a-f-]{36}\/[A-Za-z0-9_-]{43}|patients\/(digitalconsentform|resignconsent)\/[A-Za-z0-9_-]{43}|periodicvas\/[0-9a-f-]{36}\/[A-Za-z0-9_-]{43})\/?(\?|$)/i;
const patientPages: Plugin = {
  name: 'pathwell-patient-pages',
  configureServer(server) {
    server.middlewares.use((request, _response, next) => {
      if (request.method === 'GET' && request.url && patientLinkPath.test(request.url)) request.url = '/patient.html';
      next();
    });
  },
};

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text asset of the build, once, at the highest
 * level, so the server sends them as they are (@fastify/static `preCompressed`) and phones download a
 * quarter of the bytes without the server compressing on each request (issue #10 §3). Node's zlib is
 * enough; files under 1 KiB and copies that would not be smaller are skipped.
 */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;
const precompress: Plugin = {
  name: 'pathwell-precompress',
  apply: 'build',
  closeBundle() {
    const outDir = path.join(root, 'dist');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const full = path.join(dir, name);
        return statSync(full).isDirectory() ? files(full) : [full];
      });
    for (const file of files(outDir)) {
      if (!COMPRESSIBLE.test(file)) continue;
      const content = readFileSync(file);
      if (content.length < 1024) continue;
      const brotli = brotliCompressSync(content, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      });
      const gzip = gzipSync(content, { level: 9 });
      if (brotli.length < content.length) writeFileSync(`${file}.br`, brotli);
      if (gzip.length < content.length) writeFileSync(`${file}.gz`, gzip);
    }
  },
};

export default defineConfig({
  root,
  plugins: [react(), patientPages, precompress],
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
    // A page test renders Mantine in jsdom: seconds on an idle machine, several times that beside the API suite.
    testTimeout: 30_000,
  },
});
