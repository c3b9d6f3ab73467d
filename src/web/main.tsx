import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// Placeholder entry: the web-app issue replaces this with the router and providers.
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main>Master Your Mix</main>
  </StrictMode>,
);
