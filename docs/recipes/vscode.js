// ContactsBook from a VS Code extension (or any Node program) with vscode-jsonrpc 8.x,
// the JSON-RPC library VS Code's own language clients use (Content-Length framing).
//
//   npm install vscode-jsonrpc@8
//   CONTACTSBOOK_BIN=/path/to/contactsbook node docs/recipes/vscode.js
//
// NOT RUN HERE: the machines this was written on have Node 20 but cannot reach the npm
// registry, so only its syntax is checked (`node --check`, in Tests/python/test_recipes.py).
// The same flow is run for real by the Neovim, Emacs and Python recipes next to this file.
//
// CONTACTSBOOK_DB a book to use (it must exist); by default a temporary book, removed at the end.
// The recipe takes back the contact it adds (contacts/undo of its own change), so a book it is
// given is left as it was. Any failure ends it with status 1 and a message.
'use strict';
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const rpc = require('vscode-jsonrpc/node');

const given = process.env.CONTACTSBOOK_DB;
const temporary = given ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'contactsbook-recipe-'));

async function main() {
  if (given && !fs.existsSync(given)) throw new Error(`there is no book at ${given} (CONTACTSBOOK_DB)`);
  const db = given || path.join(temporary, 'book.sqlite');
  const child = cp.spawn(process.env.CONTACTSBOOK_BIN || 'contactsbook',
    ['--rpc', '--db', db, ...(temporary ? ['--create'] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.on('error', (error) => { console.error(`recipe failed: ${error.message}`); process.exit(1); });
  const connection = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));

  // Server notifications, always sent before the response of the request that caused them.
  connection.onNotification('session/message', (m) => console.log(`message: ${m.kind}: ${m.text}`));
  connection.onNotification('session/stackChanged', (p) =>
    console.log('stack: ' + p.stack.map((s) => s.scene).join(' > ')));
  connection.onNotification('session/dataChanged', (c) => console.log(`changed: ${c.topic} ${c.kind} ${c.ids}`));
  connection.listen();

  const init = await connection.sendRequest('initialize', { clientInfo: { name: 'vscode-recipe' }, capabilities: {} });
  console.log(`server: ${init.serverInfo.name} ${init.serverInfo.version}, protocol ${init.protocolVersion}`);
  await connection.sendNotification('initialized', {});

  await connection.sendRequest('contacts/add');
  await connection.sendRequest('form/given', { value: 'Ann' });
  await connection.sendRequest('form/family', { value: 'Lee' });
  await connection.sendRequest('form/email', { label: 'work', value: 'ann@' });
  try {
    await connection.sendRequest('form/save');
  } catch (error) {
    // An application error: a ResponseError with code -32010 and data.details per field.
    if (!(error instanceof rpc.ResponseError)) throw error;
    console.log(`save refused: ${error.code} ${JSON.stringify(error.data.details)}`);
  }
  await connection.sendRequest('form/clear', { field: 'emails' });
  await connection.sendRequest('form/email', { label: 'work', value: 'ann@example.org' });
  const saved = await connection.sendRequest('form/save');
  const id = saved.displayed[1].value.row.id;

  const found = await connection.sendRequest('contacts/search', { text: 'lee' });
  for (const row of found.displayed[0].value.rows) if (row.id === id) console.log(`found: ${row.name} ${row.email}`);
  const shown = await connection.sendRequest('contacts/show', { contact: id });
  console.log(`detail: ${shown.displayed[0].value.name}`);
  // Take back this recipe's own change (its number in the contact's history).
  const history = await connection.sendRequest('contacts/history', { contact: id });
  await connection.sendRequest('contacts/undo', { change: history.displayed[0].value.changes[0].id });

  // Progress for long work: pass a workDoneToken and listen for $/progress under it.
  // (No contact method is long yet; vCard import will be.)
  const token = 'list-1';
  const progress = connection.onProgress(rpc.WorkDoneProgress.type, token, (value) =>
    console.log(`progress: ${value.kind} ${value.title || value.message || ''}`));
  await connection.sendRequest('contacts/list', { workDoneToken: token });
  progress.dispose();

  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
  child.on('exit', (code) => { console.log(`exit: ${code}`); connection.dispose(); });
}

const removeTemporary = () => { if (temporary) fs.rmSync(temporary, { recursive: true, force: true }); };
main().then(removeTemporary, (error) => {
  removeTemporary();
  console.error(`recipe failed: ${error.message}`);
  process.exit(1);
});
