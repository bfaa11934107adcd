-- ContactsBook from Neovim (0.7+) with the built-in vim.lsp.rpc (Content-Length framing).
-- Try it:  nvim --headless -u NONE -c 'luafile docs/recipes/neovim.lua'
-- CONTACTSBOOK_BIN names the executable (default: contactsbook on PATH);
-- CONTACTSBOOK_DB a book to use (it must exist); by default a temporary book, removed at the end.
-- The recipe takes back the contact it adds (contacts/undo of its own change), so a book it is
-- given is left as it was. Any failure ends Neovim with status 1 and a message on stderr.
local bin = os.getenv('CONTACTSBOOK_BIN') or 'contactsbook'
local given = os.getenv('CONTACTSBOOK_DB')
local log = function(line) io.stdout:write(line .. '\n') end

local client, exited, status = nil, false, nil
local temporary = not given or given == ''
local db = temporary and (vim.fn.tempname() .. '-contacts.sqlite') or given

local function start()
  if vim.fn.executable(bin) ~= 1 then error('cannot run ' .. bin .. ' (set CONTACTSBOOK_BIN)') end
  if not temporary and vim.fn.filereadable(db) ~= 1 then error('there is no book at ' .. db .. ' (CONTACTSBOOK_DB)') end
  local args = { '--rpc', '--db', db }
  if temporary then table.insert(args, '--create') end
  client = vim.lsp.rpc.start(bin, args, {
    -- Server notifications: session/message, session/stackChanged, session/dataChanged, $/progress.
    notification = function(method, params)
      if method == 'session/message' then
        log('message: ' .. params.kind .. ': ' .. params.text)
      elseif method == 'session/stackChanged' then
        local ids = {}
        for _, scene in ipairs(params.stack) do table.insert(ids, scene.scene) end
        log('stack: ' .. table.concat(ids, ' > '))
      end
    end,
    on_error = function(code, err) io.stderr:write('rpc error: ' .. tostring(code) .. ' ' .. vim.inspect(err) .. '\n') end,
    on_exit = function(code) exited, status = true, code end,
  })
end

-- A synchronous call for a script: waits (at most 10 s) for the answer, and fails if the server
-- is gone. A plugin would pass its own callback to client.request instead of waiting.
local function call(method, params)
  local done, err, result = false, nil, nil
  client.request(method, params or vim.empty_dict(), function(e, r) done, err, result = true, e, r end)
  if not vim.wait(10000, function() return done or exited end, 10) or not done then
    error('no answer to ' .. method .. (exited and (' (contactsbook exited with status ' .. status .. ')') or ''))
  end
  return err, result
end

-- Fails with the server's own message when a call that must succeed does not.
local function must(method, params)
  local err, result = call(method, params)
  if err then error(method .. ' failed: ' .. tostring(err.message)) end
  return result
end

local function main()
  start()
  local init = must('initialize', { clientInfo = { name = 'neovim-recipe' }, capabilities = vim.empty_dict() })
  log('server: ' .. init.serverInfo.name .. ' ' .. init.serverInfo.version .. ', protocol ' .. init.protocolVersion)
  client.notify('initialized', vim.empty_dict())

  must('contacts/add')
  must('form/given', { value = 'Ann' })
  must('form/family', { value = 'Lee' })
  must('form/email', { label = 'work', value = 'ann@' })
  local err = call('form/save')
  -- An application error: err.code is -32010 and err.data.details has one entry per field.
  log('save refused: ' .. err.code .. ' ' .. vim.inspect(err.data.details, { newline = ' ', indent = '' }))
  must('form/clear', { field = 'emails' })
  must('form/email', { label = 'work', value = 'ann@example.org' })
  local saved = must('form/save')
  local id = saved.displayed[2].value.row.id

  local found = must('contacts/search', { text = 'lee' })
  for _, row in ipairs(found.displayed[1].value.rows) do
    if row.id == id then log('found: ' .. row.name .. ' ' .. row.email) end
  end
  local shown = must('contacts/show', { contact = id })
  log('detail: ' .. shown.displayed[1].value.name)
  -- Take back this recipe's own change (its number in the contact's history), whatever else the book holds.
  local history = must('contacts/history', { contact = id })
  must('contacts/undo', { change = history.displayed[1].value.changes[1].id })

  must('shutdown')
  client.notify('exit')
  if not vim.wait(10000, function() return exited end, 10) then error('contactsbook did not exit') end
  log('exit: ' .. status)
end

local ok, failure = pcall(main)
if temporary then os.remove(db) end
if not ok then
  -- Quitting closes the server's stdin, and it ends at end of input (never client.terminate():
  -- Neovim 0.7's rpc client has none).
  io.stderr:write('recipe failed: ' .. tostring(failure) .. '\n')
  vim.cmd('cquit 1')
end
vim.cmd('qall!')
