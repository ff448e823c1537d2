-- The multi-operation workload of bench/crud.ts, one operation per run. Arguments after `--`:
--   1: operation: create | read | list | delete
--   2: first id (read: ids first .. first + span - 1 in turn; delete: first, first + 1, … each once)
--   3: span of ids to read
--   4: collection path (/pets)
--   5: the create's JSON body ({"name":"Biscuit","tag":"dog"})
--   6: the list's query (limit=20)
--   7: a header line every request carries (credentials), or empty
-- `done` prints one line, WRK_JSON {...}, that bench/load.ts reads (the same as plants.lua's).

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

local operation, first, span, path, sequence, host, create_request, list_request
statuses = {} -- global: `done` reads it from each thread's Lua state with thread:get

function init(args)
  operation = args[1] or "read"
  first = tonumber(args[2] or "1")
  span = tonumber(args[3] or "1000")
  path = args[4] or "/pets"
  sequence = 0
  -- WRK_PACE_MS (bench/load.ts paceMs): a pause before each request on each connection.
  local pace = tonumber(os.getenv("WRK_PACE_MS") or "")
  if pace and pace > 0 then
    function delay() return pace end
  end
  host = "Host: " .. wrk.host .. ":" .. wrk.port .. "\r\n"
  -- The credentials travel with the Host line, so every request below carries them.
  if args[7] and args[7] ~= "" then host = host .. args[7] .. "\r\n" end
  local body = args[5] or '{"name":"Biscuit","tag":"dog"}'
  create_request = "POST " .. path .. " HTTP/1.1\r\n" .. host .. "Content-Type: application/json\r\nContent-Length: " .. #body .. "\r\n\r\n" .. body
  list_request = "GET " .. path .. "?" .. (args[6] or "limit=20") .. " HTTP/1.1\r\n" .. host .. "\r\n"
end

function request()
  local n = sequence
  sequence = sequence + 1
  if operation == "create" then return create_request end
  if operation == "list" then return list_request end
  if operation == "read" then
    return "GET " .. path .. "/" .. string.format("%.0f", first + n % span) .. " HTTP/1.1\r\n" .. host .. "\r\n"
  end
  return "DELETE " .. path .. "/" .. string.format("%.0f", first + n) .. " HTTP/1.1\r\n" .. host .. "\r\n"
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local counts = {}
  for _, thread in ipairs(threads) do
    for code, n in pairs(thread:get("statuses")) do counts[code] = (counts[code] or 0) + n end
  end
  local parts = {}
  for code, n in pairs(counts) do table.insert(parts, string.format('"%d":%d', code, n)) end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"durationUs":%d,"bytes":%d,' ..
    '"socketErrors":{"connect":%d,"read":%d,"write":%d,"timeout":%d},"non2xx":%d,' ..
    '"latencyUs":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f},"statuses":{%s}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.timeout, e.status,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
    table.concat(parts, ",")))
end
