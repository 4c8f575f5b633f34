-- The Lua benchmark of bench/programs: a sieve, table-heavy string building and closures.
local n = 400000
local sieve = {}
for i = 2, n do sieve[i] = true end
for i = 2, math.floor(math.sqrt(n)) do
  if sieve[i] then
    for j = i * i, n, i do sieve[j] = false end
  end
end
local primes = {}
for i = 2, n do
  if sieve[i] then primes[#primes + 1] = i end
end
local parts = {}
for i = 1, #primes, 7 do parts[#parts + 1] = string.format("%x", primes[i]) end
local text = table.concat(parts, ",")
local function counter()
  local c = 0
  return function(s) c = c + #s; return c end
end
local count = counter()
local total = 0
for word in text:gmatch("[^,]+") do total = count(word) end
print(#primes, total)
