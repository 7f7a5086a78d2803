import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const API_TARGET = `http://localhost:${process.env.PORT ?? 8080}`;

// The PWA build. The service worker is ours (sw/sw.ts, injectManifest): Workbox precaches the shell that
// Vite emits, and sw.ts adds the reference data and translations.
export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'autoUpdate',
      injectRegister: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
        // The face detector (TensorFlow.js inside, 1.3 MB) is fetched only by people who upload photos, when they do:
        // precaching it would make every visitor download it at install.
        globIgnores: ['**/face-api*.js'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      manifest: {
        name: 'Vitrina',
        short_name: 'Vitrina',
        description: 'Anuncios de modelos verificados en tu ciudad.',
        lang: 'es',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: '#1a1b1e',
        theme_color: '#1a1b1e',
        categories: ['lifestyle', 'business'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 700,
  },
  server: {
    proxy: {
      '/api': API_TARGET,
      '/sanctum': API_TARGET,
      '/broadcasting': API_TARGET,
      '/app': { target: API_TARGET.replace('http', 'ws'), ws: true },
    },
  },
});
