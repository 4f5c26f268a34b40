import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Relative asset URLs: the bundle is served from any root by the spec's static server.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 4096 },
});
