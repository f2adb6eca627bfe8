import fs from "node:fs";
import { renderErrorDocs } from "./error-docs.js";

fs.writeFileSync(new URL("../docs/errors.md", import.meta.url), renderErrorDocs());
console.log("docs/errors.md written");
