-- Shared by the Neovim scenarios of `ptmpl lsp` (tests/editor/*.lua). Neovim 0.7's built-in
-- client only: vim.lsp.start_client, buf_attach_client, client.request, vim.diagnostic.
--
-- Environment (tests/editor/run.sh sets it):
--   PTMPL           the ptmpl binary under test
--   PTMPL_LSP_DATA  tests/data/lsp, the templates the scenarios open (always as a copy)
--
-- A scenario calls H.run(function() ... end). Any failure raises an error whose message says
-- what was expected and what was seen; H.run prints it and leaves Neovim with `cquit 1`, a pass
-- with `qall!` (exit code 0). Every wait has a timeout, and a watchdog ends Neovim with exit
-- code 3 should a step block for longer than H.WATCHDOG_MS.
local H = {}

H.TIMEOUT_MS = 10000 -- one reply, or one round of diagnostics
H.WATCHDOG_MS = 90000 -- a whole scenario

local function say(stream, text)
  stream:write(text)
  stream:flush()
end

function H.log(fmt, ...)
  say(io.stdout, string.format(fmt, ...) .. "\n")
end

function H.fail(fmt, ...)
  error(string.format(fmt, ...), 0)
end

function H.check(condition, fmt, ...)
  if not condition then
    H.fail(fmt, ...)
  end
end

function H.env(name)
  local value = os.getenv(name)
  H.check(value ~= nil and value ~= "", "environment variable %s is not set (tests/editor/run.sh sets it)", name)
  return value
end

-- A readable form of any value (tables as sorted, nested JSON-like text).
function H.show(value)
  return vim.inspect(value, { newline = " ", indent = "" })
end

-- Files ----------------------------------------------------------------------------------

local temp_root = nil

-- A folder of this run's own (inside Neovim's temporary folder, removed when Neovim exits).
function H.temp_dir()
  if temp_root == nil then
    temp_root = vim.fn.tempname()
    H.check(vim.fn.mkdir(temp_root, "p") == 1, "cannot create the folder %s", temp_root)
  end
  return temp_root
end

function H.read_file(path)
  local file, err = io.open(path, "rb")
  H.check(file ~= nil, "cannot read %s: %s", path, tostring(err))
  local text = file:read("*a")
  file:close()
  return text
end

function H.write_file(path, text)
  local file, err = io.open(path, "wb")
  H.check(file ~= nil, "cannot write %s: %s", path, tostring(err))
  file:write(text)
  file:close()
end

-- Copies tests/data/lsp/NAME into the run's folder (as NEW_NAME when given); gives its path.
function H.copy(name, new_name)
  local path = H.temp_dir() .. "/" .. (new_name or name)
  H.write_file(path, H.read_file(H.env("PTMPL_LSP_DATA") .. "/" .. name))
  return path
end

-- Runs ptmpl with these arguments (a list, no shell); gives standard output and the exit code.
function H.ptmpl(args)
  local command = { H.env("PTMPL") }
  vim.list_extend(command, args)
  local output = vim.fn.system(command)
  return output, vim.v.shell_error
end

-- What `ptmpl lint --format json` says of a file: its list of diagnostics.
function H.lint(path)
  local output, code = H.ptmpl({ "lint", "--format", "json", path })
  H.check(code == 0 or code == 1, "ptmpl lint --format json %s exited %d: %s", path, code, output)
  local ok, report = pcall(vim.json.decode, output)
  H.check(ok and type(report) == "table", "ptmpl lint --format json printed no JSON: %s", output)
  return report.diagnostics
end

-- Texts ----------------------------------------------------------------------------------

-- The buffer as a file would hold it (lines joined by "\n", a final "\n" when 'eol' is set).
function H.buffer_text(bufnr)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  local text = table.concat(lines, "\n")
  if vim.api.nvim_buf_get_option(bufnr, "eol") then
    text = text .. "\n"
  end
  return text
end

-- Fails, naming the first line where the two texts differ, unless they are equal.
function H.expect_text(expected, actual, what)
  if expected == actual then
    return
  end
  local expected_lines = vim.split(expected, "\n", { plain = true })
  local actual_lines = vim.split(actual, "\n", { plain = true })
  for i = 1, math.max(#expected_lines, #actual_lines) do
    if expected_lines[i] ~= actual_lines[i] then
      H.fail(
        "%s: line %d differs\n  expected: %s\n  seen:     %s\n(expected %d lines, saw %d)\n--- whole buffer seen ---\n%s",
        what,
        i,
        H.show(expected_lines[i]),
        H.show(actual_lines[i]),
        #expected_lines,
        #actual_lines,
        actual
      )
    end
  end
end

-- The 0-based line and byte column of the first occurrence of PATTERN (plain text) in the
-- buffer, after line FROM (0-based, default -1).
function H.find(bufnr, pattern, from)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  for i = (from or -1) + 2, #lines do
    local column = lines[i]:find(pattern, 1, true)
    if column then
      return i - 1, column - 1
    end
  end
  H.fail("the buffer has no %s", H.show(pattern))
end

-- The LSP position (UTF-16) of a 0-based line and byte column of the buffer.
function H.lsp_position(bufnr, line, byte_column)
  local text = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1]
  local _, utf16 = vim.str_utfindex(text, byte_column)
  return { line = line, character = utf16 }
end

-- Waiting --------------------------------------------------------------------------------

-- Waits until PREDICATE() is true; fails after TIMEOUT_MS with WHAT and SEEN() (what there was).
function H.wait_for(what, predicate, seen, timeout_ms)
  local ok = vim.wait(timeout_ms or H.TIMEOUT_MS, predicate, 10)
  if not ok then
    H.fail("timed out after %d ms waiting for %s; seen: %s", timeout_ms or H.TIMEOUT_MS, what, seen and seen() or "nothing")
  end
end

-- The client --------------------------------------------------------------------------------

-- Opens PATH in a buffer and attaches a client running `PTMPL lsp` to it, with the folder of
-- PATH as the workspace. Gives the session: bufnr, client, uri, and what the server sent
-- besides replies (diagnostics published, messages shown, edits it asked for).
function H.open(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local session = {
    path = path,
    bufnr = vim.api.nvim_get_current_buf(),
    uri = vim.uri_from_fname(path),
    published = 0, -- textDocument/publishDiagnostics notifications for this document
    messages = {}, -- window/showMessage and window/logMessage: { type, message }
    exit_code = nil,
    stderr = {},
  }
  vim.api.nvim_buf_set_option(session.bufnr, "filetype", "json")
  local default = vim.lsp.handlers
  local id = vim.lsp.start_client({
    name = "ptmpl",
    cmd = { H.env("PTMPL"), "lsp" },
    root_dir = vim.fn.fnamemodify(path, ":h"),
    handlers = {
      ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
        if result and result.uri == session.uri then
          session.published = session.published + 1
          session.last_published = result
        end
        return default["textDocument/publishDiagnostics"](err, result, ctx, config)
      end,
      ["window/showMessage"] = function(_, result)
        table.insert(session.messages, result)
      end,
      ["window/logMessage"] = function(_, result)
        table.insert(session.messages, result)
      end,
    },
    on_exit = function(code, signal)
      session.exit_code = code
      session.exit_signal = signal
    end,
  })
  H.check(id ~= nil, "vim.lsp.start_client could not start %s lsp", H.env("PTMPL"))
  session.client_id = id
  H.wait_for("the server to answer initialize", function()
    local client = vim.lsp.get_client_by_id(id)
    return (client ~= nil and client.initialized) or session.exit_code ~= nil
  end, function()
    return "no reply to initialize"
  end)
  H.check(session.exit_code == nil, "%s lsp exited with code %s during initialize", H.env("PTMPL"), tostring(session.exit_code))
  session.client = vim.lsp.get_client_by_id(id)
  H.check(vim.lsp.buf_attach_client(session.bufnr, id), "vim.lsp.buf_attach_client refused the buffer")
  return session
end

-- Sends a request and waits for its reply; gives result and error (an error object or nil).
-- Fails when the server does not announce the capability the method needs (Neovim would not
-- send the request), or when no reply comes in time.
function H.request(session, method, params, timeout_ms)
  local client = session.client
  H.check(client.supports_method(method), "the server announces no capability for %s; capabilities: %s", method, H.show(client.server_capabilities))
  local reply = nil
  local sent, request_id = client.request(method, params, function(err, result)
    reply = { err = err, result = result }
  end, session.bufnr)
  H.check(sent, "the client could not send %s (the server has exited?)", method)
  local ok = vim.wait(timeout_ms or H.TIMEOUT_MS, function()
    return reply ~= nil or session.exit_code ~= nil
  end, 10)
  if not ok then
    client.cancel_request(request_id)
    H.fail("no reply to %s within %d ms (params %s)", method, timeout_ms or H.TIMEOUT_MS, H.show(params))
  end
  H.check(reply ~= nil, "the server exited (code %s) before answering %s", tostring(session.exit_code), method)
  return reply.result, reply.err
end

-- The same, failing when the reply is an error.
function H.request_ok(session, method, params, timeout_ms)
  local result, err = H.request(session, method, params, timeout_ms)
  H.check(err == nil, "%s answered with an error: %s (params %s)", method, H.show(err), H.show(params))
  return result
end

-- Parameters of a request at a 0-based line and byte column of the session's buffer.
function H.position_params(session, line, byte_column)
  return {
    textDocument = { uri = session.uri },
    position = H.lsp_position(session.bufnr, line, byte_column),
  }
end

-- Applies a WorkspaceEdit as Neovim does.
function H.apply_workspace_edit(session, edit)
  vim.lsp.util.apply_workspace_edit(edit, session.client.offset_encoding)
end

-- Stops the server (shutdown, then exit) and checks that it ends with exit code 0.
function H.close(session)
  vim.lsp.stop_client(session.client_id)
  H.wait_for("the server to exit after shutdown and exit", function()
    return session.exit_code ~= nil
  end, function()
    return "it is still running"
  end)
  H.check(session.exit_code == 0 and (session.exit_signal or 0) == 0, "the server ended with exit code %s, signal %s after shutdown and exit (expected 0)", tostring(session.exit_code), tostring(session.exit_signal))
end

-- Diagnostics ----------------------------------------------------------------------------------

local severity_names = { "error", "warning", "info", "hint" }

-- Neovim's diagnostics of the buffer as comparable records, sorted by place.
-- Orders diagnostic records by line, then column.
local function by_place(a, b)
  if a.line ~= b.line then
    return a.line < b.line
  end
  return a.col < b.col
end

function H.diagnostics(session)
  local records = {}
  for _, d in ipairs(vim.diagnostic.get(session.bufnr)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(records, {
      line = d.lnum,
      col = d.col,
      rule = d.code,
      message = d.message,
      severity = severity_names[d.severity],
      href = lsp.codeDescription and lsp.codeDescription.href or nil,
      related = lsp.relatedInformation,
    })
  end
  table.sort(records, by_place)
  return records
end

-- What `ptmpl lint --format json` says of PATH in the same form (0-based line, byte column).
function H.lint_records(session, path)
  local lines = vim.api.nvim_buf_get_lines(session.bufnr, 0, -1, false)
  local records = {}
  for _, d in ipairs(H.lint(path)) do
    local line = math.max(d.line - 1, 0)
    local col = 0
    if d.column > 1 and lines[line + 1] then
      col = vim.str_byteindex(lines[line + 1], d.column - 1)
    end
    table.insert(records, { line = line, col = col, rule = d.rule, message = d.message, severity = d.severity })
  end
  table.sort(records, by_place)
  return records
end

-- True when the buffer's diagnostics have exactly the places, rules, messages and severities
-- of EXPECTED (records as H.lint_records gives).
function H.same_diagnostics(session, expected)
  local seen = H.diagnostics(session)
  if #seen ~= #expected then
    return false
  end
  for i, e in ipairs(expected) do
    local s = seen[i]
    if s.line ~= e.line or s.col ~= e.col or s.rule ~= e.rule or s.message ~= e.message or s.severity ~= e.severity then
      return false
    end
  end
  return true
end

local function brief(records)
  local parts = {}
  for _, r in ipairs(records) do
    table.insert(parts, string.format("\n    %d:%d %s %s %s", r.line + 1, r.col + 1, tostring(r.severity), tostring(r.rule), H.show(r.message)))
  end
  return table.concat(parts)
end
H.brief = brief

-- Waits until the buffer's diagnostics are those of EXPECTED; fails showing both lists.
function H.wait_diagnostics(session, expected, what)
  H.wait_for(what .. ":" .. brief(expected) .. "\n  (lines and columns from 1)", function()
    return H.same_diagnostics(session, expected)
  end, function()
    return brief(H.diagnostics(session)) .. string.format("\n  (%d publishDiagnostics for this document)", session.published)
  end)
end

-- Running a scenario -------------------------------------------------------------------------

function H.run(name, scenario)
  local watchdog = vim.loop.new_timer()
  watchdog:start(H.WATCHDOG_MS, 0, function()
    say(io.stderr, string.format("FAIL %s: the scenario took longer than %d ms\n", name, H.WATCHDOG_MS))
    os.exit(3)
  end)
  local ok, err = xpcall(scenario, function(message)
    return { message = tostring(message), trace = debug.traceback("", 2) }
  end)
  watchdog:stop()
  if ok then
    say(io.stdout, string.format("PASS %s\n", name))
    vim.cmd("qall!")
  else
    say(io.stderr, string.format("FAIL %s: %s\n%s\n", name, err.message, err.trace))
    vim.cmd("cquit 1")
  end
end

return H
