import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * The dashboard's bundle, served by the API process at /dashboard (src/http/routes/dashboard).
 * Everything is bundled: the Content-Security-Policy allows nothing from elsewhere, and no inline
 * script or style.
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/dashboard/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // A module preload polyfill would be an inline script.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
