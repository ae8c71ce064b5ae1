package rocelab.observe.inference;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import rocelab.observe.flow.Percentiles;

/** Percentiles of the requests of each inference service, for summary.json and the printed summary. */
public final class InferenceTables {
    private InferenceTables() {}

    /** One service's latency percentiles over its completed requests, in microseconds. */
    public record ServiceStats(String service, int requests, int completed, Percentiles ttft, Percentiles tpot,
            Percentiles e2e, Percentiles idealE2e, Percentiles networkWait) {}

    /** Per service, in the order services first appear. */
    public static List<ServiceStats> stats(List<RequestRecord> requests) {
        Map<String, List<RequestRecord>> by = new LinkedHashMap<>();
        for (RequestRecord r : requests) {
            by.computeIfAbsent(r.service(), k -> new ArrayList<>()).add(r);
        }
        List<ServiceStats> out = new ArrayList<>();
        for (Map.Entry<String, List<RequestRecord>> e : by.entrySet()) {
            List<RequestRecord> done = e.getValue().stream().filter(RequestRecord::completed).toList();
            out.add(new ServiceStats(e.getKey(), e.getValue().size(), done.size(),
                    of(done, RequestRecord::ttftPs),
                    new Percentiles(done.stream().filter(r -> !Double.isNaN(r.tpotPs()))
                            .mapToLong(r -> Math.round(r.tpotPs())).toArray()),
                    of(done, RequestRecord::e2ePs), of(done, RequestRecord::idealE2ePs),
                    of(done, RequestRecord::networkWaitPs)));
        }
        return out;
    }

    private static Percentiles of(List<RequestRecord> rs, ToLongFunction<RequestRecord> f) {
        return new Percentiles(rs.stream().mapToLong(f).toArray());
    }
}
