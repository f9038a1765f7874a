-- Scenario: document formatting. A badly laid out template, formatted through the server and
-- the edits applied as Neovim applies them, equals what `ptmpl fmt` prints for it. A template
-- that does not parse is refused: an error comes back (as the reply or as a message shown) and
-- the buffer stays as it was.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":h") .. "/helper.lua")

local function format_params(session)
  return {
    textDocument = { uri = session.uri },
    options = { tabSize = 2, insertSpaces = true },
  }
end

H.run("Editor.Neovim.Format", function()
  local path = H.copy("messy.json")
  local expected, code = H.ptmpl({ "fmt", path })
  H.check(code == 0, "ptmpl fmt %s exited %d: %s", path, code, expected)
  local session = H.open(path)
  H.check(H.buffer_text(session.bufnr) ~= expected, "test data: messy.json is already canonical")
  local edits = H.request_ok(session, "textDocument/formatting", format_params(session))
  H.check(type(edits) == "table" and #edits > 0, "formatting messy.json gave no edits: %s", H.show(edits))
  vim.lsp.util.apply_text_edits(edits, session.bufnr, session.client.offset_encoding)
  H.expect_text(expected, H.buffer_text(session.bufnr), "the buffer after formatting, against ptmpl fmt")
  -- Formatting the canonical text again changes nothing.
  edits = H.request_ok(session, "textDocument/formatting", format_params(session))
  if type(edits) == "table" then
    vim.lsp.util.apply_text_edits(edits, session.bufnr, session.client.offset_encoding)
  end
  H.expect_text(expected, H.buffer_text(session.bufnr), "the buffer after formatting a second time")
  H.close(session)

  path = H.copy("unparsable.json")
  local _, fmt_code = H.ptmpl({ "fmt", path })
  H.check(fmt_code == 2, "test data: ptmpl fmt should refuse unparsable.json (exit 2), exited %d", fmt_code)
  session = H.open(path)
  local before = H.buffer_text(session.bufnr)
  local result, err = H.request(session, "textDocument/formatting", format_params(session))
  local shown = {}
  for _, message in ipairs(session.messages) do
    if message.type == 1 or message.type == 2 then -- Error or Warning
      table.insert(shown, message.message)
    end
  end
  H.check(err ~= nil or #shown > 0, "formatting a file that does not parse should report an error; reply %s, messages %s", H.show(result), H.show(session.messages))
  if err ~= nil then
    H.check(type(err.message) == "string" and err.message ~= "", "the error formatting unparsable.json has no message: %s", H.show(err))
    H.log("formatting unparsable.json: error %s %s", tostring(err.code), err.message)
  else
    H.log("formatting unparsable.json: message shown %s", H.show(shown))
  end
  if err == nil and type(result) == "table" then
    vim.lsp.util.apply_text_edits(result, session.bufnr, session.client.offset_encoding)
  end
  H.expect_text(before, H.buffer_text(session.bufnr), "the buffer after formatting a file that does not parse")
  H.check(session.exit_code == nil, "the server exited formatting a file that does not parse")
  H.close(session)
end)
