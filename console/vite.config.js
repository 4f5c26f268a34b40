import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

// Served by the gateway at /_console/ (lib/console): hashed assets under /_console/assets/.
export default defineConfig({
  base: '/_console/',
  plugins: [preact()],
  build: { outDir: 'dist', assetsDir: 'assets', emptyOutDir: true },
});
