import { defineConfig } from "vite";

// `npm run dev` serves the client with hot reload and forwards the API and the
// WebSocket to a `yinsh serve` running on the default port.
export default defineConfig({
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8080",
      "/ws": { target: "ws://127.0.0.1:8080", ws: true },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
  },
});
