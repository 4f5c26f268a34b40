import React from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.jsx';
import { readConfig } from './config.js';

const root = createRoot(document.getElementById('root'));
const config = readConfig(window.location.search);
root.render(config.error ? <p data-testid="config-error">{config.error}</p> : <App {...config} />);
