import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DASHBOARD = path.resolve("dashboard/src");
const STYLES = path.resolve("node_modules/@mantine/core/styles");

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/**
 * The dashboard bundles only the component stylesheets dashboard/src/mantine-styles.ts lists; a
 * page that starts using a component without adding its file would render it unstyled.
 */
describe("the dashboard's component styles", () => {
  it("lists the stylesheet of every Mantine component the pages import", () => {
    const used = new Set<string>();
    for (const file of sources(DASHBOARD)) {
      for (const match of fs.readFileSync(file, "utf8").matchAll(/import \{([^}]*)\} from "@mantine\/core"/g)) {
        for (const name of (match[1] as string).split(",")) {
          const component = name.replace(/\btype\b/, "").trim();
          if (component) used.add(component);
        }
      }
    }
    const listed = new Set(
      [...fs.readFileSync(path.join(DASHBOARD, "mantine-styles.ts"), "utf8").matchAll(/styles\/(\w+)\.css/g)].map(
        (m) => m[1] as string,
      ),
    );
    const styled = [...used].filter((component) => fs.existsSync(path.join(STYLES, `${component}.css`)));
    expect(styled.length).toBeGreaterThan(10);
    expect(styled.filter((component) => !listed.has(component))).toEqual([]);
  });
});
