import "./mantine-styles";
import "./dashboard.css";
import { MantineProvider } from "@mantine/core";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";

// The theme's variables and global classes come from the bundled stylesheet: the provider's own
// <style> elements would be inline styles, which the Content-Security-Policy refuses (AppShell's
// media styles too, so the shell's layout is dashboard.css's).
createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <MantineProvider forceColorScheme="light" withCssVariables={false} withGlobalClasses={false}>
      <App />
    </MantineProvider>
  </StrictMode>,
);
