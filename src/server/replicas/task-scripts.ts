import { script } from "./redis-link.js";

/**
 * The atomic steps of the Redis task store, as Lua scripts. A task is a hash
 * (`v`, its version; `data`, its JSON) that expires with its time to live;
 * `tasks` orders every task by when it expires (to count them and to tell of
 * expiries), `running` names the replica that runs each unfinished task, and
 * an owner's sorted set lists its tasks by creation.
 */

/**
 * The task is named in `running` together with its replica's lease, renewed
 * here: a sweep never finds it there without one, whenever the replica's own
 * timer last renewed it (its first tick, or the one after an outage, is up
 * to a third of the lease away).
 * KEYS: the task, `tasks`, `running`, the owner's set (or the task again), the replica's lease.
 * ARGV: id, JSON, ttlMs, expiry, now, maxTasks, replica, createdAt, has owner, leaseMs.
 * Returns 0 when `maxTasks` tasks are kept already, else 1.
 */
export const CREATE_TASK = script(`
if redis.call('ZCOUNT', KEYS[2], '(' .. ARGV[5], '+inf') >= tonumber(ARGV[6]) then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 'data', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
redis.call('SET', KEYS[5], ARGV[7], 'PX', ARGV[10])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[7])
if ARGV[9] == '1' then
  redis.call('ZADD', KEYS[4], ARGV[8], ARGV[1])
  if redis.call('PTTL', KEYS[4]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[4], ARGV[3]) end
end
return 1
`);

/**
 * Compare and set: the new state is kept only if the task is still at the
 * version it was read at. KEYS: the task, `running`. ARGV: the version read,
 * the new JSON, "1" when the task has ended, id, channel, the message told.
 * Returns -1 when the task is gone, 0 when it changed meanwhile, else 1.
 */
export const UPDATE_TASK = script(`
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return -1 end
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tonumber(v) + 1, 'data', ARGV[2])
if ARGV[3] == '1' then redis.call('HDEL', KEYS[2], ARGV[4]) end
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
`);

/**
 * Tells of the tasks whose time to live has passed (once, whichever replica
 * sweeps first), and, when ARGV[4] is "1", returns the unfinished tasks whose
 * replica's lease has lapsed. KEYS: `tasks`, `running`. ARGV: now, channel,
 * the lease keys' prefix, whether to look for orphans.
 */
export const SWEEP_TASKS = script(`
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1000)
for _, id in ipairs(gone) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('PUBLISH', ARGV[2], '{"taskId":"' .. id .. '","gone":true}')
end
local orphans = {}
if ARGV[4] ~= '1' then return orphans end
local running = redis.call('HGETALL', KEYS[2])
for i = 1, #running, 2 do
  if redis.call('EXISTS', ARGV[3] .. running[i + 1]) == 0 then
    orphans[#orphans + 1] = running[i]
  end
end
return orphans
`);
