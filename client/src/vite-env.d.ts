// Vite's client types: `import "./board.css"` in view.ts is a module Vite handles.
/// <reference types="vite/client" />
