// Validates AP2 receipts against the AP2 v0.2 JSON schemas with ajv
// (draft 2020-12), every schema file added so that $refs resolve. A few
// files' $id differ from their path (types/receipt_status.json says
// receipt-status.json), so each is added under the URL its path gives,
// which is what the relative $refs of the others name.
//
// Reads {"schema_dir": "...", "receipts": [{"schema": "checkout_receipt.json", "payload": {...}}]}
// on stdin; writes {"errors": [...]} (empty when all are valid).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";

const base = "https://ap2-protocol.org/schemas/";

// schemaFiles lists the schema files under dir with the path below the
// ap2/ or ucp/ folder, which names them under base.
function schemaFiles(dir, rel = "") {
  return readdirSync(join(dir, rel)).flatMap((name) => {
    const path = join(rel, name);
    if (statSync(join(dir, path)).isDirectory()) return schemaFiles(dir, path);
    return name.endsWith(".json") ? [{ file: join(dir, path), id: base + path.split("/").slice(1).join("/") }] : [];
  });
}

async function main() {
  let input = "";
  for await (const chunk of process.stdin) input += chunk;
  const req = JSON.parse(input);
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  for (const { file, id } of schemaFiles(req.schema_dir)) {
    ajv.addSchema({ ...JSON.parse(readFileSync(file, "utf8")), $id: id });
  }
  const errors = [];
  for (const { schema, payload } of req.receipts) {
    const validate = ajv.getSchema(base + schema);
    if (!validate) {
      errors.push(`${schema}: no such schema`);
    } else if (!validate(payload)) {
      errors.push(`${schema}: ${ajv.errorsText(validate.errors)}`);
    }
  }
  process.stdout.write(JSON.stringify({ errors }) + "\n");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
