import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { bootstrap } from './app/bootstrap.js';
import { installModePalette } from './lib/mode-palette.js';
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/composer.css';
import './styles/history.css';
import './styles/diff.css';
import './styles/timeline.css';
import './styles/timeline-hints.css';
import './styles/step-filter.css';
import './styles/tool-calls.css';
import './styles/charts.css';
import './styles/code.css';
import './styles/trials.css';
import './styles/prices.css';
import './styles/answers.css';
import './styles/result.css';
import './styles/waterfall.css';

installModePalette(document);
void bootstrap();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
