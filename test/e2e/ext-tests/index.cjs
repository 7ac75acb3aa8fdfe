// extensionTestsPath for the extension host (code-server's node host, opened with the workbench `payload`; see
// run-e2e.mjs). Runs every *.test.cjs here with mocha (from the e2e cache: E2E_MOCHA) and writes one result per test
// to E2E_EXT_RESULT, so the e2e runner counts them in the same suite. A failed test rejects: the host exits non-zero.
const fs = require('fs');
const path = require('path');

exports.run = function run() {
  const Mocha = require(process.env.E2E_MOCHA);
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60000, reporter: 'spec' });
  for (const f of fs.readdirSync(__dirname).sort()) if (f.endsWith('.test.cjs')) mocha.addFile(path.join(__dirname, f));
  const results = [];
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      if (process.env.E2E_EXT_RESULT) fs.writeFileSync(process.env.E2E_EXT_RESULT, JSON.stringify(results, null, 1));
      failures > 0 ? reject(new Error(`${failures} extension-host tests failed`)) : resolve();
    });
    runner.on('pass', (t) => results.push({ title: t.fullTitle(), ok: true }));
    runner.on('fail', (t, err) => results.push({ title: t.fullTitle(), ok: false, error: String((err && err.message) || err).split('\n')[0] }));
  });
};
