-- :checkhealth contactsbook (Neovim 0.7's `health` module, or vim.health from 0.8 on).
local M = {}

function M.check()
  local health = vim.health or require('health')
  local start = health.start or health.report_start
  local ok = health.ok or health.report_ok
  local warn = health.warn or health.report_warn
  local error = health.error or health.report_error
  local contactsbook = require('contactsbook')
  local program = contactsbook.config.cmd[1]

  start('contactsbook')
  if vim.fn.has('nvim-0.7') == 1 then ok('Neovim 0.7 or later') else error('Neovim 0.7 or later is needed') end
  if vim.fn.executable(program) ~= 1 then
    error('cannot find the program "' .. program .. '"', { 'install contactsbook, or set cmd in require("contactsbook").setup{}' })
    return
  end
  local version = vim.fn.system({ program, '--version' })
  ok(program .. ' ' .. vim.trim(version) .. ' (' .. vim.fn.exepath(program) .. ')')
  local help = vim.fn.system({ program, 'session', '--help' })
  if help:find('%-%-lsp') then ok('it serves --lsp') else error('this contactsbook has no --lsp: update it') end
  local problem = contactsbook.problem()
  if problem then
    error('the book cannot be opened: ' .. problem, { 'set db in setup{}, or make the book with contactsbook first' })
  else
    ok('the book opens' .. (contactsbook.config.db and (' (' .. contactsbook.config.db .. ')') or ' (the default book)'))
  end
  local running = #vim.tbl_filter(function(client) return client.name == 'contactsbook' end, vim.lsp.get_active_clients())
  if running > 0 then ok('the language server is running') else warn('the language server is not running (open a mail buffer)') end
end

return M
