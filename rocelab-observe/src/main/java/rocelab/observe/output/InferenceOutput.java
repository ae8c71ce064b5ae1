package rocelab.observe.output;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rocelab.observe.RunResult;
import rocelab.observe.flow.Percentiles;
import rocelab.observe.inference.CallRecord;
import rocelab.observe.inference.InferenceTables;
import rocelab.observe.inference.RequestRecord;

/** The inference services' output: requests.csv, llm_calls.csv and the {@code inference} key of summary.json. */
final class InferenceOutput {
    private InferenceOutput() {}

    static String requestsCsv(List<RequestRecord> requests) {
        CsvTable t = new CsvTable(List.of("service", "request", "arrival_us", "llm_calls", "prefill_tokens",
                "output_tokens", "decode_instance", "ttft_us", "tpot_us", "e2e_us", "ideal_e2e_us", "network_wait_us",
                "beside_items", "beside_longest", "beside_longest_us", "status"));
        for (var r : requests) {
            boolean done = r.completed();
            t.row(r.service(), r.request(), Numbers.micros(r.arrivalPs()), r.llmCalls(), r.prefillTokens(),
                    r.outputTokens(), r.decodeInstance(), r.ttftPs() >= 0 ? Numbers.micros(r.ttftPs()) : null,
                    done ? us(r.tpotPs() / 1e6) : null, done ? Numbers.micros(r.e2ePs()) : null,
                    r.idealEndPs() >= 0 ? Numbers.micros(r.idealE2ePs()) : null,
                    done && r.idealEndPs() >= 0 ? Numbers.micros(r.networkWaitPs()) : null,
                    r.beside().items(), r.beside().items() > 0 ? r.beside().longest() : null,
                    r.beside().items() > 0 ? Numbers.micros(r.beside().overlapPs()) : null,
                    done ? "completed" : "unfinished");
        }
        return t.toString();
    }

    static String llmCallsCsv(List<CallRecord> calls) {
        CsvTable t = new CsvTable(List.of("service", "request", "call", "prefill_instance", "decode_instance",
                "decode_slot", "prefill_tokens", "output_tokens", "kv_bytes", "ready_us", "queue_us",
                "prefill_end_us", "kv_transfer_us", "slot_wait_us", "first_token_us", "last_token_us", "ttft_us", "tpot_us",
                "ideal_ttft_us", "status"));
        for (var c : calls) {
            t.row(c.service(), c.request(), c.call(), c.prefillInstance(), c.decodeInstance(), c.slot(),
                    c.prefillTokens(), c.outputTokens(), c.kvBytes(), at(c.readyPs()),
                    c.prefillStartPs() >= 0 && c.readyPs() >= 0 ? Numbers.micros(c.queuePs()) : null,
                    at(c.prefillEndPs()), c.kvDonePs() >= 0 ? Numbers.micros(c.kvTransferPs()) : null,
                    c.decodeStartPs() >= 0 && c.kvDonePs() >= 0 ? Numbers.micros(c.slotWaitPs()) : null,
                    at(c.firstTokenPs()), at(c.lastTokenPs()),
                    c.firstTokenPs() >= 0 ? Numbers.micros(c.ttftPs()) : null,
                    c.completed() ? us(c.tpotPs() / 1e6) : null, c.idealTtftPs() >= 0 ? Numbers.micros(c.idealTtftPs())
                            : null, c.completed() ? "completed" : "unfinished");
        }
        return t.toString();
    }

    private static Object at(long ps) {
        return ps < 0 ? null : Numbers.micros(ps);
    }

    /**
     * Per inference service, with no request too: request counts, p50/p90/p99 of TTFT (over the requests with a first
     * token), TPOT, E2E and network wait (over the completed ones), in us, and what else ran beside it.
     */
    static List<Object> summary(RunResult r) {
        List<Object> list = new ArrayList<>();
        for (var s : InferenceTables.stats(r.services(), r.requests())) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("service", s.service());
            row.put("requests", s.requests());
            row.put("completed", s.completed());
            row.put("with_first_token", s.ttft().count());
            row.put("ttft_us", percentiles(s.ttft()));
            row.put("tpot_us", percentiles(s.tpot()));
            row.put("e2e_us", percentiles(s.e2e()));
            row.put("ideal_e2e_us", percentiles(s.idealE2e()));
            row.put("network_wait_us", percentiles(s.networkWait()));
            var b = s.record().beside();
            if (b.items() > 0) {
                Map<String, Object> beside = new LinkedHashMap<>();
                beside.put("items", b.items());
                beside.put("longest", b.longest());
                beside.put("longest_us", Numbers.micros(b.overlapPs()));
                row.put("beside", beside);
            }
            list.add(row);
        }
        return list;
    }

    private static Map<String, Object> percentiles(Percentiles p) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int q : new int[] {50, 90, 99}) {
            m.put("p" + q, p.count() == 0 ? null : Numbers.micros(p.percentile(q)));
        }
        m.put("max", p.count() == 0 ? null : Numbers.micros(p.max()));
        return m;
    }

    /** Microseconds to 3 decimals, or empty when not known. */
    private static Object us(double micros) {
        return Double.isNaN(micros) ? null : Numbers.round(micros, 3);
    }
}
