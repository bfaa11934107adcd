-- ContactsBook from Neovim (0.7+) with the built-in vim.lsp.rpc (Content-Length framing).
-- Try it:  nvim --headless -u NONE -c 'luafile docs/recipes/neovim.lua'
-- CONTACTSBOOK_BIN names the executable (default: contactsbook on PATH);
-- CONTACTSBOOK_DB the book (default: a book that lives only for this run).
local bin = os.getenv('CONTACTSBOOK_BIN') or 'contactsbook'
local db = os.getenv('CONTACTSBOOK_DB') or ':memory:'
local log = function(line) io.stdout:write(line .. '\n') end

local exited = false
local client = vim.lsp.rpc.start(bin, { '--rpc', '--db', db }, {
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
  on_error = function(code, err) log('rpc error: ' .. tostring(code) .. ' ' .. vim.inspect(err)) end,
  on_exit = function(code, signal) exited = true; log('exit: ' .. code) end,
})

-- A synchronous call for a script: waits (at most 10 s) for the answer. A plugin would
-- pass its own callback to client.request instead of waiting.
local function call(method, params)
  local done, err, result = false, nil, nil
  client.request(method, params or vim.empty_dict(), function(e, r) done, err, result = true, e, r end)
  if not vim.wait(10000, function() return done end, 10) then error('no answer to ' .. method) end
  return err, result
end

local function main()
  local _, init = call('initialize', { clientInfo = { name = 'neovim-recipe' }, capabilities = vim.empty_dict() })
  log('server: ' .. init.serverInfo.name .. ' ' .. init.serverInfo.version .. ', protocol ' .. init.protocolVersion)
  client.notify('initialized', vim.empty_dict())

  call('contacts/add')
  call('form/given', { value = 'Ann' })
  call('form/family', { value = 'Lee' })
  call('form/email', { label = 'work', value = 'ann@' })
  local err = call('form/save')
  -- An application error: err.code is -32010 and err.data.details has one entry per field.
  log('save refused: ' .. err.code .. ' ' .. vim.inspect(err.data.details, { newline = ' ', indent = '' }))
  call('form/clear', { field = 'emails' })
  call('form/email', { label = 'work', value = 'ann@example.org' })
  call('form/save')

  local _, found = call('contacts/search', { text = 'lee' })
  for _, row in ipairs(found.displayed[1].value.rows) do log('found: ' .. row.id .. ' ' .. row.name .. ' ' .. row.email) end
  local _, shown = call('contacts/show', { contact = 'ann lee' })
  log('detail: ' .. shown.displayed[1].value.name)
  call('session/back')

  call('shutdown', nil)
  client.notify('exit')
  vim.wait(10000, function() return exited end, 10)
end

-- In a script, any failure ends Neovim with status 1 instead of leaving it waiting.
local ok, failure = pcall(main)
if not ok then
  io.stderr:write('recipe failed: ' .. tostring(failure) .. '\n')
  if not exited then client.terminate() end
  vim.cmd('cquit 1')
end
vim.cmd('qall!')
