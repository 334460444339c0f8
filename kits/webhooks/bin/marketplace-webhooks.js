#!/usr/bin/env node
// The command: the compiled CLI (npm run build, or tsc -b kits/webhooks, makes dist/).
require('../dist/cli/main.js')
  .main(process.argv.slice(2))
  .then(
    (code) => process.exit(code),
    (error) => {
      console.error(`marketplace-webhooks: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    },
  );
