-- `specmint lsp` in Neovim's built-in LSP client, headless (run by tests/peers/lsp/nvim.sh):
-- open a spec, type a mistake, read the diagnostic at its range, apply the code action, see
-- it clear; hover on a cap row shows the generated constant. Written for Neovim 0.7 (Debian
-- 12's) and later: vim.lsp.start_client, vim.diagnostic.
local bin, dir = os.getenv("SPECMINT_BIN"), os.getenv("SPEC_DIR")

local function fail(msg)
  io.stderr:write("FAIL: " .. msg .. "\n")
  vim.cmd("cquit 1")
end

local function wait(what, cond)
  if not vim.wait(15000, cond, 20) then
    fail("timed out waiting for " .. what)
  end
end

vim.cmd("edit " .. dir .. "/task_packet.md")
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = "specmint",
  cmd = { bin, "lsp" },
  root_dir = dir,
  flags = { debounce_text_changes = 0 },
})
vim.lsp.buf_attach_client(buf, id)
wait("the client to start", function()
  local c = vim.lsp.get_client_by_id(id)
  return c ~= nil and c.initialized
end)

-- Hover on CONSTRAINT_TEXT_MAX_CHARS's row: the generated constant.
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local cap
for i, l in ipairs(lines) do
  if l:find("CONSTRAINT_TEXT_MAX_CHARS", 1, true) then cap = i - 1 end
end
local hover = vim.lsp.buf_request_sync(buf, "textDocument/hover", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = cap, character = 4 },
}, 10000)
local text = hover and hover[id] and hover[id].result and hover[id].result.contents.value or ""
if not text:find("pub const CONSTRAINT_TEXT_MAX_CHARS: usize = 200;", 1, true) then
  fail("hover on the cap row: " .. text)
end

-- Type a mistake: `string` becomes `strng` in the Type cell of `objective`.
local row, col
for i, l in ipairs(lines) do
  if l:find("| `objective` | non-blank string |", 1, true) then
    row = i - 1
    col = l:find("non-blank string", 1, true) - 1
  end
end
if row == nil then fail("no `objective` row") end
local s = col + #"non-blank str"
vim.api.nvim_buf_set_text(buf, row, s, row, s + 1, { "" })
wait("the diagnostic", function() return #vim.diagnostic.get(buf) == 1 end)
local d = vim.diagnostic.get(buf)[1]
if d.lnum ~= row or d.col ~= col or d.end_lnum ~= row or d.end_col ~= col + #"non-blank strng" then
  fail(string.format("range %d:%d-%d:%d, want the cell %d:%d-%d:%d", d.lnum, d.col, d.end_lnum,
    d.end_col, row, col, row, col + #"non-blank strng"))
end
if not d.message:find("unknown type `strng` in `non-blank strng`", 1, true) then
  fail("message: " .. d.message)
end
if d.severity ~= vim.diagnostic.severity.ERROR then fail("severity " .. tostring(d.severity)) end

-- The code action (did you mean `string`?), applied as the client applies one.
local actions = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = row, character = col }, ["end"] = { line = row, character = col + 15 } },
  context = { diagnostics = {} },
}, 10000)
local action = actions and actions[id] and actions[id].result and actions[id].result[1]
if not action or action.title ~= "Change to `string`" then
  fail("code action: " .. vim.inspect(actions))
end
vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
local fixed = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1]
if not fixed:find("| `objective` | non-blank string |", 1, true) then fail("after the action: " .. fixed) end
wait("the diagnostic to clear", function() return #vim.diagnostic.get(buf) == 0 end)

print("neovim: hover, the diagnostic at its cell, the code action and the clear: ok")
vim.lsp.stop_client(id)
vim.cmd("qall!")
