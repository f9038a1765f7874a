-- Scenario: code actions. On a template with one finding that has a safe fix, the quick fix
-- offered for that diagnostic, applied as Neovim applies it, leaves the buffer equal to what
-- `ptmpl lint --fix` writes. On a template with three safe fixes and an unsafe one, "fix all
-- safe" (kind source.fixAll) leaves it equal to `ptmpl lint --fix`'s file (the unsafe fix is
-- not applied), and the unsafe fix, when offered as a quick fix, is not the preferred one.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helper.lua")

-- What `ptmpl lint --fix` writes for tests/data/lsp/NAME (on a copy of its own).
local function fixed_by_lint(name)
  local path = H.copy(name, "lint-fix-" .. name)
  local output, code = H.ptmpl({ "lint", "--fix", path })
  H.check(code == 0 or code == 1, "ptmpl lint --fix %s exited %d: %s", path, code, output)
  return H.read_file(path)
end

-- The diagnostics the server last published for the buffer (the LSP form a client sends back
-- in a codeAction context), those touching lines FIRST to LAST (0-based) when given.
local function lsp_diagnostics(session, first, last)
  local chosen = {}
  for _, d in ipairs((session.last_published or {}).diagnostics or {}) do
    if first == nil or (d.range.start.line <= last and d.range["end"].line >= first) then
      table.insert(chosen, d)
    end
  end
  return chosen
end

local function titles(actions)
  local parts = {}
  for _, action in ipairs(actions or {}) do
    table.insert(parts, string.format("%s [%s]", tostring(action.title), tostring(action.kind)))
  end
  return table.concat(parts, "; ")
end

-- Applies a code action as vim.lsp.buf.code_action does: its edit, then its command (which
-- may ask the client to apply an edit); resolves it first when it carries neither.
local function apply(session, action)
  if action.edit == nil and action.command == nil then
    action = H.request_ok(session, "codeAction/resolve", action)
  end
  local before = vim.api.nvim_buf_get_changedtick(session.bufnr)
  if action.edit then
    H.apply_workspace_edit(session, action.edit)
  end
  if action.command then
    local command = type(action.command) == "table" and action.command or action
    H.request_ok(session, "workspace/executeCommand", { command = command.command, arguments = command.arguments })
  end
  H.wait_for("the code action " .. H.show(action.title) .. " to change the buffer", function()
    return vim.api.nvim_buf_get_changedtick(session.bufnr) ~= before
  end)
end

local function wait_for_rule(session, rule)
  H.wait_for("a " .. rule .. " diagnostic", function()
    for _, d in ipairs(vim.diagnostic.get(session.bufnr)) do
      if d.code == rule then
        return true
      end
    end
    return false
  end, function()
    return H.brief(H.diagnostics(session))
  end)
end

H.run("Editor.Neovim.CodeAction", function()
  -- One safe fix, as a quick fix.
  local expected = fixed_by_lint("one-fix.json")
  local session = H.open(H.copy("one-fix.json"))
  wait_for_rule(session, "tag-list-format")
  local diagnostic = vim.diagnostic.get(session.bufnr)[1]
  local params = {
    textDocument = { uri = session.uri },
    range = { start = { line = diagnostic.lnum, character = 0 }, ["end"] = { line = diagnostic.lnum + 1, character = 0 } },
  }
  params.context = { diagnostics = lsp_diagnostics(session, diagnostic.lnum, diagnostic.lnum) }
  local actions = H.request_ok(session, "textDocument/codeAction", params) or {}
  local quick_fix = nil
  for _, action in ipairs(actions) do
    if action.kind == "quickfix" and quick_fix == nil then
      quick_fix = action
    end
  end
  H.check(quick_fix ~= nil, "no quickfix action for the tag-list-format diagnostic; actions: %s", titles(actions))
  apply(session, quick_fix)
  H.expect_text(expected, H.buffer_text(session.bufnr), "the buffer after the quick fix, against ptmpl lint --fix")
  H.wait_diagnostics(session, {}, "no diagnostic once the fix is applied")
  H.close(session)

  -- Fix all safe ones.
  expected = fixed_by_lint("fixable.json")
  session = H.open(H.copy("fixable.json"))
  wait_for_rule(session, "key-misspelt")
  local last = vim.api.nvim_buf_line_count(session.bufnr)
  params = {
    textDocument = { uri = session.uri },
    range = { start = { line = 0, character = 0 }, ["end"] = { line = last, character = 0 } },
    context = { diagnostics = lsp_diagnostics(session), only = { "source.fixAll" } },
  }
  actions = H.request_ok(session, "textDocument/codeAction", params) or {}
  local fix_all = nil
  for _, action in ipairs(actions) do
    if type(action.kind) == "string" and action.kind:sub(1, #"source.fixAll") == "source.fixAll" then
      fix_all = action
    end
  end
  H.check(fix_all ~= nil, "no source.fixAll action (fix all safe); actions: %s", titles(actions))

  -- The unsafe fix (key-misspelt) is marked: never the preferred action of its diagnostic.
  local line = H.find(session.bufnr, '"descripton"')
  params.range = { start = { line = line, character = 0 }, ["end"] = { line = line + 1, character = 0 } }
  params.context = { diagnostics = lsp_diagnostics(session, line, line) }
  for _, action in ipairs(H.request_ok(session, "textDocument/codeAction", params) or {}) do
    -- The line holds the key-misspelt finding only: no quick fix there may be preferred.
    H.check(not (action.kind == "quickfix" and action.isPreferred),
      "the unsafe fix of key-misspelt is offered as the preferred quick fix: %s", H.show(action))
  end

  apply(session, fix_all)
  H.expect_text(expected, H.buffer_text(session.bufnr), "the buffer after fix all safe, against ptmpl lint --fix")
  H.close(session)
end)
