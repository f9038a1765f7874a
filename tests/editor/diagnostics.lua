-- Scenario: open a broken template (a target_id naming no story, a temp_id used twice, a
-- misspelt key); the diagnostics Neovim shows are what `ptmpl lint --format json` says of the
-- same file: rule ids (the diagnostic code, with a link to the rule's page), messages,
-- severities, lines and columns. Then an edit in the buffer (the misspelt key corrected) and
-- the diagnostics follow: again those of lint on the edited text.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helper.lua")

H.run("Editor.Neovim.Diagnostics", function()
  local path = H.copy("broken.json")
  local session = H.open(path)

  local expected = H.lint_records(session, path)
  local rules = {}
  for _, record in ipairs(expected) do
    rules[record.rule] = true
  end
  for _, rule in ipairs({ "dependency-target-missing", "temp-id-duplicate", "key-misspelt" }) do
    H.check(rules[rule], "test data: ptmpl lint finds no %s in broken.json:%s", rule, H.brief(expected))
  end
  H.wait_diagnostics(session, expected, "the diagnostics of ptmpl lint on opening broken.json")

  for _, d in ipairs(H.diagnostics(session)) do
    H.check(type(d.href) == "string" and d.href:find(d.rule, 1, true) ~= nil,
      "diagnostic %s at %d:%d: codeDescription.href should link to the rule's page, is %s", d.rule, d.line + 1, d.col + 1, H.show(d.href))
    if d.rule == "temp-id-duplicate" then
      -- The first definition of the temp_id as a related location.
      local line = H.find(session.bufnr, '"temp_id": "walls"')
      local found = false
      for _, related in ipairs(d.related or {}) do
        if related.location and related.location.uri == session.uri and related.location.range.start.line == line then
          found = true
        end
      end
      H.check(found, "temp-id-duplicate should name the first definition (line %d) as related information; has %s", line + 1, H.show(d.related))
    end
  end

  -- Correct the misspelt key in the buffer (an incremental change, as typing sends).
  local line, column = H.find(session.bufnr, '"relativ_due_date"')
  vim.api.nvim_buf_set_text(session.bufnr, line, column + 8, line, column + 8, { "e" })
  local edited = H.temp_dir() .. "/broken-edited.json"
  H.write_file(edited, H.buffer_text(session.bufnr))
  local after = H.lint_records(session, edited)
  H.check(#after == #expected - 1, "test data: the edit should leave %d findings, lint finds:%s", #expected - 1, H.brief(after))
  H.wait_diagnostics(session, after, "the diagnostics of ptmpl lint on the edited text")

  H.close(session)
end)
