-- Drives editors/nvim in a headless Neovim (0.7+) against `contactsbook --lsp`, as a person would:
-- a mail draft, completion, hover, a code action, the picker, :ContactsAdd, and a diagnostic that
-- goes away when another process adds the address. Prints `ok: ...` lines; any failure ends
-- Neovim with status 1 and `FAILED: ...` on stderr (never a wait: every wait is bounded).
-- Environment: CONTACTSBOOK_BIN, TEST_DB (a book with José Ñúñez and Ann Lee), TEST_DRAFT (a file).
local bin, db, draft = os.getenv('CONTACTSBOOK_BIN'), os.getenv('TEST_DB'), os.getenv('TEST_DRAFT')
local function say(line) io.stdout:write(line .. '\n') end
local function check(condition, message) if not condition then error(message, 2) end end
local function wait(what, condition)
  check(vim.wait(15000, condition, 20), 'timed out waiting for ' .. what)
end

local messages = {}
vim.notify = function(message) table.insert(messages, message) end

local function request(method, params)
  local answers = vim.lsp.buf_request_sync(0, method, params, 10000)
  check(answers, 'no answer to ' .. method)
  for _, answer in pairs(answers) do
    check(not answer.err, method .. ': ' .. vim.inspect(answer.err))
    return answer.result
  end
end

local function set_line(row, text)
  vim.api.nvim_buf_set_lines(0, row - 1, row, false, { text })
  vim.api.nvim_win_set_cursor(0, { row, #text })
end

local function complete()
  local params = vim.lsp.util.make_position_params()
  local result = request('textDocument/completion', params)
  return result.items or result, result.isIncomplete
end

local function labels(items)
  return vim.tbl_map(function(item) return item.label end, items)
end

local function diagnostics(code)
  return vim.tbl_filter(function(d) return d.code == code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code == code) end,
    vim.diagnostic.get(0))
end

local function main()
  local contactsbook = require('contactsbook')
  contactsbook.setup({ cmd = { bin }, db = db })
  vim.cmd('edit ' .. vim.fn.fnameescape(draft))
  vim.bo.filetype = 'mail'
  local client
  wait('the server to start', function()
    client = vim.lsp.get_active_clients()[1]
    return client ~= nil and client.server_capabilities ~= nil and #vim.lsp.buf_get_clients(0) == 1
  end)
  check(vim.bo.omnifunc == 'v:lua.vim.lsp.omnifunc', 'omnifunc is ' .. vim.bo.omnifunc)
  say('ok: started for a mail buffer, omnifunc set')

  -- To: jos → José Ñúñez <jose@correo.es>
  set_line(1, 'To: jos')
  local items, incomplete = complete()
  check(items[1] and items[1].label == 'José Ñúñez <jose@correo.es>', 'items: ' .. vim.inspect(labels(items)))
  check(incomplete == true, 'isIncomplete')
  vim.lsp.util.apply_text_edits({ items[1].textEdit }, 0, 'utf-16')
  check(vim.api.nvim_buf_get_lines(0, 0, 1, false)[1] == 'To: José Ñúñez <jose@correo.es>', 'line 1: ' .. vim.api.nvim_get_current_line())
  say('ok: completed To: jos')

  -- a second address after ", "
  set_line(1, 'To: José Ñúñez <jose@correo.es>, lee')
  items = complete()
  check(items[1] and items[1].label == 'Ann Lee <ann@example.org>', 'items: ' .. vim.inspect(labels(items)))
  vim.lsp.util.apply_text_edits({ items[1].textEdit }, 0, 'utf-16')
  check(vim.api.nvim_get_current_line() == 'To: José Ñúñez <jose@correo.es>, Ann Lee <ann@example.org>',
    'line 1: ' .. vim.api.nvim_get_current_line())
  say('ok: completed a second address')

  -- hover on José
  vim.api.nvim_win_set_cursor(0, { 1, 8 })
  local hover = request('textDocument/hover', vim.lsp.util.make_position_params())
  local text = type(hover.contents) == 'table' and (hover.contents.value or vim.inspect(hover.contents)) or tostring(hover.contents)
  check(text:find('José Ñúñez', 1, true) and text:find('jose@correo.es', 1, true), 'hover: ' .. text)
  say('ok: hover shows the contact')

  -- a code action adds an unknown recipient; its diagnostic goes
  set_line(2, 'Cc: Kim Park <kim@park.example>')
  wait('the unknown-address hint', function() return #diagnostics('unknown-address') == 1 end)
  vim.api.nvim_win_set_cursor(0, { 2, 8 })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(0, 1) }
  local actions = request('textDocument/codeAction', params)
  local add
  for _, action in ipairs(actions) do
    if action.title == 'Add Kim Park <kim@park.example> to contacts' then add = action end
  end
  check(add, 'actions: ' .. vim.inspect(vim.tbl_map(function(a) return a.title end, actions)))
  local done = client.request_sync('workspace/executeCommand', add.command, 10000, 0)
  check(done and not done.err, 'executeCommand: ' .. vim.inspect(done))
  wait('the hint to go', function() return #diagnostics('unknown-address') == 0 end)
  say('ok: code action added Kim Park')

  -- another process adds the address: the diagnostic goes away
  set_line(3, 'Bcc: Olga Brown <olga@example.com>')
  wait('the hint for Olga', function() return #diagnostics('unknown-address') == 1 end)
  vim.fn.system({ bin, 'add-email', '--yes', '--db', db }, 'From: Olga Brown <olga@example.com>\n\n')
  check(vim.v.shell_error == 0, 'add-email failed')
  wait('the hint to go after the other process', function() return #diagnostics('unknown-address') == 0 end)
  say('ok: a diagnostic went away when another process added the address')

  -- the picker inserts the address chosen
  vim.ui.select = function(choices, _, on_choice)
    for _, choice in ipairs(choices) do
      if choice.address:find('jose@', 1, true) then return on_choice(choice) end
    end
    on_choice(nil)
  end
  set_line(4, 'Reply-To: ')
  vim.cmd('Contacts nunez')
  check(vim.api.nvim_get_current_line() == 'Reply-To: José Ñúñez <jose@correo.es>', 'line 4: ' .. vim.api.nvim_get_current_line())
  say('ok: :Contacts picked and inserted')

  -- :ContactsAdd for the address under the cursor
  set_line(2, 'Cc: Kim Park <kim@park.example>, Zed Zimmer <zed@example.net>')
  vim.api.nvim_win_set_cursor(0, { 2, 40 })
  vim.cmd('ContactsAdd')
  wait('the add to be told', function()
    return vim.tbl_contains(messages, 'contactsbook: Added Zed Zimmer <zed@example.net> to contacts')
  end)
  say('ok: :ContactsAdd added Zed Zimmer')

  vim.cmd('silent! write')
end

local ok, failure = pcall(main)
if not ok then
  io.stderr:write('FAILED: ' .. tostring(failure) .. '\nmessages: ' .. vim.inspect(messages) .. '\n')
  vim.cmd('cquit 1')
end
vim.cmd('qall!')
