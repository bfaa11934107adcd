-- editors/nvim with a missing binary or a book that cannot be opened: a mail buffer gets a clear
-- message at once, nothing is started or written. Prints the messages; status 1 on a failure.
local cmd, db = os.getenv('TEST_CMD'), os.getenv('TEST_DB')
local messages = {}
vim.notify = function(message) table.insert(messages, message) end
local ok, failure = pcall(function()
  require('contactsbook').setup({ cmd = { cmd }, db = db })
  vim.cmd('enew')
  vim.bo.filetype = 'mail'
  vim.bo.filetype = 'mail'  -- a second mail buffer is not told again
  assert(#vim.lsp.get_active_clients() == 0, 'a client started')
  require('contactsbook').pick('x')
end)
for _, message in ipairs(messages) do io.stdout:write(message .. '\n') end
if not ok then io.stderr:write('FAILED: ' .. tostring(failure) .. '\n'); vim.cmd('cquit 1') end
vim.cmd('qall!')
