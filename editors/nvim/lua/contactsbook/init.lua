-- contactsbook.nvim: addresses from ContactsBook in mail buffers, through Neovim's built-in LSP
-- client (`contactsbook --lsp`), and a picker. Works with Neovim 0.7 and later: it uses
-- vim.lsp.start_client and buf_attach_client (vim.lsp.start is 0.8+).
local M = {}

M.config = {
  -- The executable and any arguments before --lsp (e.g. { 'contactsbook', '--db', '~/book.sqlite' }).
  cmd = { 'contactsbook' },
  -- The book, if not the default one (passed as --db).
  db = nil,
  -- Buffers of these filetypes get the language server.
  filetypes = { 'mail' },
  -- How many contacts :Contacts offers.
  limit = 50,
}

local client_id = nil
-- Set once the binary or the book failed, so a session says so once and does not retry on every buffer.
local broken = nil

local function notify(message, level)
  vim.notify('contactsbook: ' .. message, level or vim.log.levels.INFO)
end

--- The command line for a contactsbook subcommand, with --db when configured.
function M.command(...)
  local cmd = vim.deepcopy(M.config.cmd)
  for _, arg in ipairs({ ... }) do table.insert(cmd, arg) end
  if M.config.db then
    table.insert(cmd, '--db')
    table.insert(cmd, vim.fn.expand(M.config.db))
  end
  return cmd
end

--- Why the server cannot run, or nil: the binary is missing, or the book cannot be opened (read
--- only: `contactsbook list` never makes a book, so a missing one is reported, never created).
function M.problem()
  if vim.fn.executable(M.config.cmd[1]) ~= 1 then
    return 'cannot find the program "' .. M.config.cmd[1] .. '" (install contactsbook, or set cmd in setup())'
  end
  local output = vim.fn.system(M.command('list', '--limit', '1'))
  -- Status 1 is an empty book; 2 is a book that cannot be opened.
  if vim.v.shell_error >= 2 then
    return (output:gsub('^error: ', ''):gsub('%s+$', ''))
  end
  return nil
end

--- The running client, started when needed; nil (having said why, once) when it cannot run.
function M.client()
  local client = client_id and vim.lsp.get_client_by_id(client_id)
  if client and not client.is_stopped() then return client end
  if broken then return nil end
  broken = M.problem()
  if broken then
    notify(broken, vim.log.levels.ERROR)
    return nil
  end
  client_id = vim.lsp.start_client({
    name = 'contactsbook',
    cmd = M.command('--lsp'),
    root_dir = vim.loop.cwd(),
    on_attach = function(_, bufnr)
      -- Neovim 0.7 does not set omnifunc itself: <C-x><C-o> completes addresses.
      vim.api.nvim_buf_set_option(bufnr, 'omnifunc', 'v:lua.vim.lsp.omnifunc')
    end,
    on_exit = function(code)
      if code ~= 0 then notify('the server exited with status ' .. code .. ' (:checkhealth contactsbook)', vim.log.levels.WARN) end
    end,
    handlers = {
      -- "Added Ann Lee <ann@example.org> to contacts" and the like, as a message rather than a prompt.
      ['window/showMessage'] = function(_, result) if result then notify(result.message) end end,
    },
  })
  return client_id and vim.lsp.get_client_by_id(client_id)
end

--- Attaches the server to a buffer (a mail draft).
function M.attach(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = M.client()
  if client then vim.lsp.buf_attach_client(bufnr, client.id) end
end

--- Runs one of the server's commands and returns its result, or nil after saying why.
function M.execute(command, arguments, timeout)
  local client = M.client()
  if not client then return nil end
  local answer, err = client.request_sync('workspace/executeCommand', { command = command, arguments = arguments },
    timeout or 5000, vim.api.nvim_get_current_buf())
  if not answer then
    notify('no answer from the server: ' .. tostring(err), vim.log.levels.ERROR)
    return nil
  end
  if answer.err then
    notify(answer.err.message, vim.log.levels.ERROR)
    return nil
  end
  return answer.result
end

local address_fields = { to = true, cc = true, bcc = true, from = true, ['reply-to'] = true }

--- Whether line `row` (1-based) of the buffer is in an address field of the headers: the
--- field's own line or one of its continuation lines.
local function in_address_field(row)
  for r = row, 1, -1 do
    local line = vim.api.nvim_buf_get_lines(0, r - 1, r, false)[1] or ''
    if line == '' then return false end
    local name = line:match('^([%w%-]+):')
    if name then return address_fields[name:lower()] == true end
    if not line:match('^[ \t]') then return false end
  end
  return false
end

--- Inserts an address after the cursor (as `a` would, from normal mode where a command runs);
--- in an address field after another address, ", " first.
local function insert_address(text)
  local row, col = unpack(vim.api.nvim_win_get_cursor(0))
  local line = vim.api.nvim_get_current_line()
  if #line > 0 then
    -- Past the (UTF-8) character under the cursor.
    local character = line:sub(col + 1):match('^[%z\1-\127\194-\244][\128-\191]*') or ' '
    col = math.min(col + #character, #line)
  end
  local before = line:sub(1, col)
  if in_address_field(row) and before:match('[^%s:,]%s*$') then text = ', ' .. text end
  vim.api.nvim_buf_set_text(0, row - 1, col, row - 1, col, { text })
  vim.api.nvim_win_set_cursor(0, { row, col + #text })
end

--- :Contacts [TEXT]: picks an address with vim.ui.select (telescope or fzf-lua replace it as
--- usual) and inserts it at the cursor.
function M.pick(text)
  local result = M.execute('contactsbook.search', { text or '', M.config.limit })
  if not result then return end
  local choices = {}
  for _, contact in ipairs(result.contacts or {}) do
    for _, address in ipairs(contact.addresses or {}) do
      table.insert(choices, { address = address, contact = contact })
    end
  end
  if #choices == 0 then
    notify(text and text ~= '' and ('no address matches "' .. text .. '"') or 'no contact has an email address')
    return
  end
  vim.ui.select(choices, {
    prompt = 'Contact',
    format_item = function(choice)
      local organization = choice.contact.organization
      return choice.address .. ((organization and organization ~= '') and ('  · ' .. organization) or '')
    end,
  }, function(choice)
    if choice then insert_address(choice.address) end
  end)
end

--- The address under the cursor: the text between the separators around it (",", the field's
--- ":" or the line's ends), e.g. `José Ñúñez <jose@correo.es>`.
function M.address_under_cursor()
  local line = vim.api.nvim_get_current_line()
  local col = vim.api.nvim_win_get_cursor(0)[2] + 1
  local start, stop = 1, #line
  local header = line:match('^[%w%-]+:()')
  if header then start = header end
  local in_quotes = false
  for i = 1, #line do
    local c = line:sub(i, i)
    if c == '"' then in_quotes = not in_quotes end
    if c == ',' and not in_quotes then
      if i < col then start = i + 1 elseif i >= col then stop = i - 1; break end
    end
  end
  local text = vim.trim(line:sub(start, stop))
  if not text:find('@') then return nil end
  return text
end

--- :ContactsAdd [ADDRESS]: adds the address under the cursor (or the one given) to the book.
function M.add(address)
  address = (address and address ~= '') and address or M.address_under_cursor()
  if not address then
    notify('no address under the cursor', vim.log.levels.WARN)
    return
  end
  local result = M.execute('contactsbook.addAddress', { address })
  if result then notify(result.message) end
  return result
end

function M.setup(options)
  M.config = vim.tbl_deep_extend('force', M.config, options or {})
  broken = nil
  local group = vim.api.nvim_create_augroup('contactsbook', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args) M.attach(args.buf) end,
  })
end

return M
