-- POST /plants load for wrk. Every request carries an id that no other request of the bench
-- used (the mock answers 409 to a duplicate). Arguments after `--`:
--   1: id base, distinct per run against the same server, so runs never collide
--   2: scenario: "valid" (every request a valid, authenticated NewPlant) or "mixed"
--      (1 in 10 a body whose name is not a string, 1 in 20 without credentials)
--   3: bearer token to send
-- Requests are written by hand rather than with wrk.format, and `response` only counts
-- statuses: the load generator must stay far from its own limit on its one core.
-- `done` prints one line, WRK_JSON {...}, that bench/load.ts reads.

local threads = {}
local thread_count = 0

function setup(thread)
  thread:set("thread_index", thread_count)
  thread_count = thread_count + 1
  table.insert(threads, thread)
end

local STRIDE = 64 -- ids interleave across at most 64 threads: thread i sends base + i + 64 n
local base, scenario, sequence
local valid_head, anonymous_head
statuses = {} -- global: `done` reads it from each thread's Lua state with thread:get

function init(args)
  base = tonumber(args[1] or "1000000000000")
  scenario = args[2] or "valid"
  local token = args[3] or "bench-token"
  sequence = 0
  -- WRK_PACE_MS (bench/load.ts paceMs): a pause before each request on each connection.
  local pace = tonumber(os.getenv("WRK_PACE_MS") or "")
  if pace and pace > 0 then
    function delay() return pace end
  end
  local host = "Host: " .. wrk.host .. ":" .. wrk.port .. "\r\n"
  anonymous_head = "POST /plants HTTP/1.1\r\n" .. host .. "Content-Type: application/json\r\nContent-Length: "
  valid_head = "POST /plants HTTP/1.1\r\n" .. host ..
    "Content-Type: application/json\r\nAuthorization: Bearer " .. token .. "\r\nContent-Length: "
end

local function post(head, body)
  return head .. #body .. "\r\n\r\n" .. body
end

function request()
  local id = string.format("%.0f", base + thread_index + STRIDE * sequence)
  local k = sequence % 20
  sequence = sequence + 1
  if scenario == "mixed" then
    if k == 0 then return post(anonymous_head, '{"id":' .. id .. ',"name":"Fern","tag":"bench"}') end -- 401
    if k == 1 or k == 11 then return post(valid_head, '{"id":' .. id .. ',"name":42,"tag":"bench"}') end -- 400
  end
  return post(valid_head, '{"id":' .. id .. ',"name":"Fern","tag":"bench"}')
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
