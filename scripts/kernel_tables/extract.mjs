// Extracts the compact kernel-table fixtures in tests/kernels/ from the measured kernel tables of the public
// repository ai-dynamo/aiconfigurator (Apache-2.0), so that the calibrated model's kernel level can be fitted and
// validated without the 180 MB of parquet files (README.md beside this file).
//
//   node extract.mjs <aiconfigurator checkout or `git archive` of it> <commit> <output folder>
//
// Every table is read whole, sorted by its shape columns and sampled evenly (at most `target` rows, always the
// first and last), latencies converted from milliseconds to seconds
// (five significant digits: the tables repeat to a few per cent). MoE keeps only balanced routing (the engine
// prices uniform routing; load imbalance is an input of its own): A100's table has none. The output is one JSON file per chip.
import fs from 'node:fs'
import path from 'node:path'
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'

const [root, commit, outDir] = process.argv.slice(2)
if (!root || !commit || !outDir) {
  console.error('usage: node extract.mjs <aiconfigurator checkout> <commit> <output folder>')
  process.exit(2)
}

// The upstream system folder, the engine's preset id, and the backend release whose tables are read (the newest
// TensorRT-LLM release with every table measured on the chip; A100's newest measured one is 1.0.0).
const chips = [
  { system: 'h100_sxm', preset: 'h100-sxm', trtllm: '1.3.0rc20', nccl: '2.29.2' },
  { system: 'h200_sxm', preset: 'h200', trtllm: '1.3.0rc20', nccl: '2.29.2' },
  { system: 'b200_sxm', preset: 'b200', trtllm: '1.3.0rc20', nccl: '2.29.2' },
  { system: 'gb200', preset: 'gb200-nvl72', trtllm: '1.3.0rc20', nccl: '2.29.2' },
  { system: 'a100_sxm', preset: 'a100-80gb', trtllm: '1.0.0', nccl: '2.27.3' },
]

const dtypeName = { bfloat16: 'bf16', half: 'bf16', fp8: 'fp8', fp8_block: 'fp8_block', nvfp4: 'fp4', int8: 'int8' }

// Each table: its upstream file, the columns kept (name in the fixture <- upstream column), which rows to keep,
// the sort key and how many rows to sample per group.
const tables = [
  {
    op: 'gemm', dir: 'gemm', file: 'gemm_perf', backend: 'trtllm', target: 800, group: ['dtype'],
    columns: { dtype: r => dtypeName[r.gemm_dtype], m: 'm', n: 'n', k: 'k' },
    keep: r => r.gemm_dtype in dtypeName,
  },
  {
    op: 'context_attention', dir: 'attention', file: 'context_attention_perf', backend: 'trtllm', target: 1500,
    columns: {
      batch: 'batch_size', seq_len: 'isl', heads: 'num_heads', kv_heads: 'num_key_value_heads', head_dim: 'head_dim',
      window: 'window_size', dtype: r => dtypeName[r.attn_dtype], kv_dtype: r => dtypeName[r.kv_cache_dtype],
    },
  },
  {
    op: 'generation_attention', dir: 'attention', file: 'generation_attention_perf', backend: 'trtllm', target: 1500,
    // `step` is the KV length already cached: the new token attends to step + 1 keys.
    columns: {
      batch: 'batch_size', kv_len: r => Number(r.step) + 1, heads: 'num_heads', kv_heads: 'num_key_value_heads',
      head_dim: 'head_dim', window: 'window_size', kv_dtype: r => dtypeName[r.kv_cache_dtype],
    },
  },
  {
    op: 'context_mla', dir: 'mla', file: 'context_mla_perf', backend: 'trtllm', target: 600,
    columns: { batch: 'batch_size', seq_len: 'isl', heads: 'num_heads', kv_dtype: r => dtypeName[r.kv_cache_dtype] },
  },
  {
    op: 'generation_mla', dir: 'mla', file: 'generation_mla_perf', backend: 'trtllm', target: 600,
    columns: {
      batch: 'batch_size', kv_len: r => Number(r.step) + 1, heads: 'num_heads',
      kv_dtype: r => dtypeName[r.kv_cache_dtype],
    },
  },
  {
    op: 'moe', dir: 'moe', file: 'moe_perf', backend: 'trtllm', target: 800, group: ['dtype'],
    columns: {
      dtype: r => dtypeName[r.moe_dtype], tokens: 'num_tokens', hidden: 'hidden_size', inter: 'inter_size',
      topk: 'topk', experts: 'num_experts', tp: 'moe_tp_size', ep: 'moe_ep_size',
      gated: r => (r.kernel_source.includes('nongated') ? 0 : 1),
    },
    keep: r => r.distribution === 'balanced' && r.moe_dtype in dtypeName,
  },
  {
    // nccl-tests' size is the whole buffer (the gathered or reduced array); upstream divides it by the element size.
    op: 'nccl', dir: 'comm', file: 'nccl_perf', backend: 'nccl', target: 100000,
    columns: {
      collective: r => (r.op_name === 'alltoall' ? 'all_to_all' : r.op_name), gpus: 'num_gpus',
      bytes: r => Number(r.message_size) * (r.nccl_dtype === 'int8' ? 1 : 2), dtype: r => dtypeName[r.nccl_dtype],
    },
  },
  {
    op: 'custom_all_reduce', dir: 'comm', file: 'custom_allreduce_perf', backend: 'trtllm', target: 100000,
    columns: { gpus: 'num_gpus', bytes: r => Number(r.message_size) * 2 },
  },
]

const number = v => (typeof v === 'bigint' ? Number(v) : v)

function value(row, spec) {
  return typeof spec === 'function' ? spec(row) : number(row[spec])
}

function compareRows(a, b) {
  for (let i = 0; i < a.length - 1; ++i) {
    if (a[i] < b[i]) return -1
    if (a[i] > b[i]) return 1
  }
  return 0
}

// At most `target` rows spread evenly over the sorted rows, the first and the last among them.
function sample(rows, target) {
  if (rows.length <= target) return rows
  const out = []
  for (let i = 0; i < target; ++i) out.push(rows[Math.round((i * (rows.length - 1)) / (target - 1))])
  return out
}

fs.mkdirSync(outDir, { recursive: true })
for (const chip of chips) {
  const out = {
    schema: 'scalescope.kernel_tables/1',
    hardware: chip.preset,
    source: {
      repository: 'ai-dynamo/aiconfigurator', commit, licence: 'Apache-2.0', system: chip.system,
      note: 'latencies measured by the repository\'s collectors (collector/) on the named backend release; ' +
        'sampled evenly after sorting by shape (scripts/kernel_tables/extract.mjs)',
    },
    tables: [],
  }
  for (const t of tables) {
    const version = t.backend === 'nccl' ? chip.nccl : chip.trtllm
    const rel = `aic-core/src/aiconfigurator_core/systems/data/${chip.system}/${t.dir}/${t.backend}/${version}/${t.file}.parquet`
    const file = path.join(root, rel)
    if (!fs.existsSync(file)) {
      console.error(`${chip.system}: no ${t.op} table at ${rel}`)
      continue
    }
    const raw = await parquetReadObjects({ file: await asyncBufferFromFile(file), compressors })
    const names = Object.keys(t.columns)
    const rows = raw
      .filter(r => !t.keep || t.keep(r))
      .map(r => [...names.map(n => value(r, t.columns[n])), Number((number(r.latency) * 1e-3).toPrecision(5))])
      .sort(compareRows)
    const groupAt = (t.group || []).map(g => names.indexOf(g))
    const groups = new Map()
    for (const r of rows) {
      const key = groupAt.map(i => r[i]).join('/')
      if (!groups.has(key)) groups.set(key, [])
      groups.get(key).push(r)
    }
    const kept = [...groups.values()].flatMap(g => sample(g, t.target))
    out.tables.push({
      op: t.op, path: rel, backend: t.backend, version, upstream_rows: raw.length,
      columns: [...names, 'latency_s'], rows: kept,
    })
    console.log(`${chip.system} ${t.op}: ${kept.length} of ${raw.length} rows`)
  }
  fs.writeFileSync(path.join(outDir, `${chip.preset}.json`), JSON.stringify(out) + '\n')
}
