import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The RPC module alone, not the engine's index: the landing page loads no audio code.
import { onWorkerCrash } from '../audio/workers/worker-rpc';
import { App } from './app/app';
import { reportClientError, reportUncaughtErrors } from './lib/report-client-error';
import './styles.css';

reportUncaughtErrors();
onWorkerCrash((error) => reportClientError('worker-crash', error));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
