// Checks argument schemas against JSON Schema 2020-12's meta-schema with Ajv, a validator
// no one here wrote. Usage: node metaschema.cjs NODE_MODULES SCHEMAS.json
// SCHEMAS.json is a list of {"name": ..., "schema": ...}; prints one line per schema that
// is not valid JSON Schema (its name and Ajv's errors) and the count checked, and exits 1
// when any is invalid.
const path = require("path");
const fs = require("fs");
const Ajv2020 = require(path.join(process.argv[2], "ajv", "dist", "2020")).default;
const ajv = new Ajv2020({ strict: false, validateFormats: false });
const schemas = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
let invalid = 0;
for (const { name, schema } of schemas) {
  if (!ajv.validateSchema(schema)) {
    invalid += 1;
    console.log(`${name}: ${ajv.errorsText(ajv.errors)}`);
  }
}
console.log(`checked ${schemas.length}, invalid ${invalid}`);
process.exit(invalid === 0 ? 0 : 1);
