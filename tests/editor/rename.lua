-- Scenario: rename a temp_id. Renaming "walls" to "side_walls" from the story's temp_id, as
-- Neovim applies the WorkspaceEdit, changes it in the story and in every dependency naming it
-- (source_id and target_id) and nowhere else (not in the title "Raise the walls"). Then a
-- rename started from a dependency's target_id does the same for another story, and the
-- renamed template lints as clean as the original.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helper.lua")

local function rename(session, pattern, offset_in_pattern, old, new)
  local line, column = H.find(session.bufnr, pattern)
  local params = H.position_params(session, line, column + offset_in_pattern)
  if session.client.server_capabilities.renameProvider and type(session.client.server_capabilities.renameProvider) == "table"
    and session.client.server_capabilities.renameProvider.prepareProvider then
    local range = H.request_ok(session, "textDocument/prepareRename", params)
    H.check(range ~= nil and range ~= vim.NIL, "prepareRename on %s refused: %s", pattern, H.show(range))
  end
  params.newName = new
  local edit = H.request_ok(session, "textDocument/rename", params)
  H.check(type(edit) == "table", "rename of %s gave no WorkspaceEdit: %s", old, H.show(edit))
  H.apply_workspace_edit(session, edit)
end

-- TEXT with every JSON string "OLD" that is a temp_id, source_id or target_id value made "NEW".
local function renamed(text, old, new)
  local result = text
  for _, key in ipairs({ "temp_id", "source_id", "target_id" }) do
    result = result:gsub('"' .. key .. '": "' .. old .. '"', '"' .. key .. '": "' .. new .. '"')
  end
  return result
end

H.run("Editor.Neovim.Rename", function()
  local path = H.copy("navigation.json")
  local original = H.read_file(path)
  local session = H.open(path)

  rename(session, '"temp_id": "walls"', 13, "walls", "side_walls")
  local expected = renamed(original, "walls", "side_walls")
  H.check(expected ~= original and select(2, expected:gsub("side_walls", "")) == 3, "test data: navigation.json should name walls three times")
  H.expect_text(expected, H.buffer_text(session.bufnr), "the buffer after renaming walls to side_walls")

  rename(session, '"target_id": "roof"', 15, "roof", "roof_on")
  expected = renamed(expected, "roof", "roof_on")
  H.expect_text(expected, H.buffer_text(session.bufnr), "the buffer after renaming roof to roof_on from a target_id")

  local written = H.temp_dir() .. "/renamed.json"
  H.write_file(written, H.buffer_text(session.bufnr))
  local findings = H.lint(written)
  H.check(#findings == 0, "the renamed template should lint clean, lint finds %s", H.show(findings))
  H.wait_diagnostics(session, {}, "no diagnostic after the renames")
  H.close(session)
end)
