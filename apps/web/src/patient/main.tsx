import './patient.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { patientI18n } from './i18n';
import { PatientApp } from './patient-app';

const container = document.getElementById('root');
if (!container) throw new Error('patient.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <I18nextProvider i18n={patientI18n}>
      <PatientApp pathname={window.location.pathname} />
    </I18nextProvider>
  </StrictMode>,
);
