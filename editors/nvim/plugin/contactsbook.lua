-- Loaded at start-up from the runtime path: the commands, and the language server for mail
-- buffers with the default settings (require('contactsbook').setup{...} changes them).
if vim.g.loaded_contactsbook then return end
vim.g.loaded_contactsbook = true

local contactsbook = require('contactsbook')
vim.api.nvim_create_user_command('Contacts', function(command) contactsbook.pick(command.args) end,
  { nargs = '?', desc = 'Pick a contact and insert its address' })
vim.api.nvim_create_user_command('ContactsAdd', function(command) contactsbook.add(command.args) end,
  { nargs = '?', desc = 'Add the address under the cursor (or the one given) to contactsbook' })
if not vim.g.contactsbook_no_setup then contactsbook.setup() end
