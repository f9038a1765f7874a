-- Scenario: hover and completion, a smoke test. A hover on a story (on its temp_id, and on a
-- target_id naming it) shows the story's title. Completion inside a target_id value lists every
-- temp_id of the template, in a value as written and in one emptied by typing.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helper.lua")

-- The text of a hover's contents (MarkupContent, MarkedString or a list of MarkedStrings).
local function hover_text(contents)
  if type(contents) == "string" then
    return contents
  end
  if type(contents) ~= "table" then
    return ""
  end
  if contents.value then
    return contents.value
  end
  local parts = {}
  for _, part in ipairs(contents) do
    table.insert(parts, hover_text(part))
  end
  return table.concat(parts, "\n")
end

local function hover(session, pattern, offset_in_pattern, title)
  local line, column = H.find(session.bufnr, pattern)
  local result = H.request_ok(session, "textDocument/hover", H.position_params(session, line, column + offset_in_pattern))
  H.check(type(result) == "table", "no hover on %s (line %d): %s", pattern, line + 1, H.show(result))
  local text = hover_text(result.contents)
  H.check(text:find(title, 1, true) ~= nil, "the hover on %s should show the title %s; shows %s", pattern, H.show(title), H.show(text))
end

-- What an item would insert, without quotes.
local function item_texts(item)
  local texts = { item.label, item.insertText, item.textEdit and item.textEdit.newText or nil, item.filterText }
  local unquoted = {}
  for _, text in pairs(texts) do
    if type(text) == "string" then
      table.insert(unquoted, (text:gsub('^"', ""):gsub('"$', "")))
    end
  end
  return unquoted
end

local function complete(session, line, byte_column, temp_ids, where)
  local result = H.request_ok(session, "textDocument/completion", H.position_params(session, line, byte_column))
  local items = (type(result) == "table" and (result.items or result)) or {}
  local offered = {}
  for _, item in ipairs(items) do
    for _, text in ipairs(item_texts(item)) do
      offered[text] = true
    end
  end
  for _, temp_id in ipairs(temp_ids) do
    H.check(offered[temp_id], "completion %s does not offer the temp_id %s; items: %s", where, temp_id, H.show(vim.tbl_map(function(item)
      return item.label
    end, items)))
  end
end

H.run("Editor.Neovim.HoverCompletion", function()
  local session = H.open(H.copy("navigation.json"))
  hover(session, '"temp_id": "floor"', 14, "Lay the floor")
  hover(session, '"target_id": "roof"', 15, "Roof on")

  local temp_ids = { "foundation", "walls", "floor", "roof" }
  local line, column = H.find(session.bufnr, '"target_id": "floor"')
  complete(session, line, column + 14, temp_ids, "at the start of the target_id value \"floor\"")

  -- Empty the value as typing would, then complete between the quotes.
  vim.api.nvim_buf_set_text(session.bufnr, line, column + 14, line, column + 19, { "" })
  H.check(vim.api.nvim_buf_get_lines(session.bufnr, line, line + 1, false)[1]:find('"target_id": ""', 1, true), "the edit did not empty the value")
  complete(session, line, column + 14, temp_ids, "inside an emptied target_id value")
  H.close(session)
end)
