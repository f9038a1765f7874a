-- Scenario: go to definition. From a target_id value and from a source_id value, Neovim's
-- jump (vim.lsp.util.jump_to_location) lands the cursor on the story with that temp_id; from a
-- target_id that names no story there is nowhere to go (an empty answer, no error).
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helper.lua")

-- The 0-based lines of the story whose temp_id line is TEMP_ID_LINE: from its "{" to its "}"
-- (the templates of tests/data/lsp are laid out by ptmpl fmt).
local function story_lines(bufnr, temp_id_line)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local indent = lines[temp_id_line + 1]:match("^(%s*)"):sub(3)
  local first, last = temp_id_line, temp_id_line
  while first > 0 and lines[first + 1] ~= indent .. "{" do
    first = first - 1
  end
  while last + 1 < #lines and not lines[last + 1]:match("^" .. indent .. "}") do
    last = last + 1
  end
  return first, last
end

local function locations(result)
  if result == nil or result == vim.NIL then
    return {}
  end
  if result.uri or result.targetUri then
    return { result }
  end
  return result
end

local function jump_from(session, pattern, temp_id)
  local line, column = H.find(session.bufnr, pattern)
  local value_column = column + #pattern - #temp_id - 1 -- on the value's first character
  local result = H.request_ok(session, "textDocument/definition", H.position_params(session, line, value_column))
  local found = locations(result)
  H.check(#found >= 1, "definition from %s (line %d) gave no location: %s", pattern, line + 1, H.show(result))
  vim.api.nvim_win_set_cursor(0, { line + 1, value_column })
  H.check(vim.lsp.util.jump_to_location(found[1], session.client.offset_encoding), "Neovim could not jump to %s", H.show(found[1]))
  local uri = found[1].uri or found[1].targetUri
  H.check(uri == session.uri, "definition from %s points to %s, not to this document (%s)", pattern, uri, session.uri)

  local temp_id_line = H.find(session.bufnr, '"temp_id": "' .. temp_id .. '"')
  local first, last = story_lines(session.bufnr, temp_id_line)
  local cursor = vim.api.nvim_win_get_cursor(0)
  H.check(cursor[1] - 1 >= first and cursor[1] - 1 <= last,
    "definition from %s: the cursor landed on line %d column %d, outside the story with temp_id %s (lines %d to %d)",
    pattern, cursor[1], cursor[2] + 1, temp_id, first + 1, last + 1)
  H.log("definition from %s (line %d) → line %d, column %d (story %s, lines %d to %d)", pattern, line + 1, cursor[1], cursor[2] + 1, temp_id, first + 1, last + 1)
end

H.run("Editor.Neovim.Definition", function()
  local session = H.open(H.copy("navigation.json"))
  jump_from(session, '"target_id": "roof"', "roof")
  jump_from(session, '"target_id": "floor"', "floor")
  jump_from(session, '"source_id": "walls"', "walls")
  H.close(session)

  session = H.open(H.copy("broken.json"))
  local line, column = H.find(session.bufnr, '"target_id": "wals"')
  local result = H.request_ok(session, "textDocument/definition", H.position_params(session, line, column + 15))
  H.check(#locations(result) == 0, "definition from a target_id naming no story should give nothing, gave %s", H.show(result))
  H.close(session)
end)
