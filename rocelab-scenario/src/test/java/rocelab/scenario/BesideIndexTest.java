package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.CollectiveRecord;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.output.SummaryText;

/**
 * A traffic collective beside the workload's other items on its RNICs: an all-reduce under web-search background
 * traffic names the background item and how long its flows touched the all-reduce's hosts (the union of their spans
 * from post to delivery within the call's), counted here again from flows.csv's records; alone, it names nothing.
 */
class BesideIndexTest {
    private static final String BASE = """
            name: beside
            seed: 2
            fabric: {mode: roce-lossless}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 4, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            traffic:
              - {kind: allreduce, ranks: 0-3, size: 16MB, start: 100us}
            """;

    private static RunResult run(String yaml) {
        return Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
    }

    @Test
    void shouldNameTheBackgroundTrafficOnTheCallsRnicsAndForHowLong() {
        RunResult alone = run(BASE);
        assertThat(alone.collectives().get(0).beside()).isEqualTo(CollectiveRecord.Beside.NONE);
        int callFlows = alone.flows().size();

        RunResult both = run(BASE + "  - {kind: poisson, sizes: alistorage2019, load: 0.5, duration: 1ms}\n");
        CollectiveRecord call = both.collectives().get(0);
        assertThat(call.concurrent()).isEqualTo(CollectiveRecord.Concurrent.NONE);
        assertThat(call.beside().items()).isEqualTo(1);
        assertThat(call.beside().longest()).isEqualTo("traffic item 2");
        // The union, within the call, of the spans of the background flows that leave from or arrive at h0-h3.
        List<long[]> spans = new ArrayList<>();
        for (FlowRecord f : both.flows().subList(callFlows, both.flows().size())) {
            if ((f.src() < 4 || f.dst() < 4) && f.completed()) {
                long a = Math.max(f.startPs(), call.startPs());
                long b = Math.min(f.deliveredPs(), call.endPs());
                if (a < b) {
                    spans.add(new long[] {a, b});
                }
            }
        }
        spans.sort((x, y) -> Long.compare(x[0], y[0]));
        long union = 0;
        long from = -1;
        long to = -1;
        for (long[] s : spans) {
            if (s[0] > to) {
                union += to - from;
                from = s[0];
                to = s[1];
            } else {
                to = Math.max(to, s[1]);
            }
        }
        union += to - from;
        assertThat(call.beside().overlapPs()).isEqualTo(union).isPositive();
        assertThat(SummaryText.render(both, null)).contains("; the ideal is the call alone, and 1 other item of the"
                + " workload had flows on its RNICs meanwhile (traffic item 2 for ");
        // Its flows' time held back by their rates: flows.csv's rate_held_us over their FCTs, the call's flows only.
        long held = 0;
        long fct = 0;
        for (FlowRecord f : both.flows().subList(0, callFlows)) {
            held += f.rateHeldPs();
            fct += f.fctPs();
        }
        assertThat(call.rateHeldShare()).isEqualTo((double) held / fct);
    }

    @Test
    void shouldNameTheBackgroundBesideAJobsCallsThatCrossItsRnicsOnly() throws Exception {
        // The shipped SimAI job (TP 4 inside each server over NVLink, DP 4 across the servers) under web-search
        // traffic: the DP calls, whose data goes through the RNICs, have the background beside them there; the TP
        // calls, over NVLink, have beside them only the background's transfers between GPUs of their server, which
        // cross that NVLink too (a tp(dp=3) call beside them 6.8 us took 64.8 us against its ideal's 61.9).
        String example;
        try (var in = BesideIndexTest.class.getResourceAsStream("/rocelab/scenario/examples/simai-gpt.yaml")) {
            example = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        String yaml = example + "traffic:\n  - {kind: poisson, sizes: websearch, load: 0.4, duration: 10ms}\n";
        RunResult r = Simulation.assemble(new rocelab.scenario.read.ScenarioReader().read(yaml, "simai-gpt.yaml",
                java.nio.file.Path.of("../scenarios/examples"))).run(ProgressListener.NONE);
        List<CollectiveRecord> dp = r.collectives().stream().filter(c -> c.name().contains("/dp(")).toList();
        List<CollectiveRecord> tp = r.collectives().stream().filter(c -> c.name().contains("/tp(")).toList();
        assertThat(dp).isNotEmpty().allSatisfy(c -> assertThat(c.beside().longest()).isEqualTo("traffic item 1"));
        assertThat(tp).isNotEmpty().allSatisfy(c -> assertThat(c.beside().items() == 0
                || c.beside().nvlink() && c.beside().longest().equals("traffic item 1")).isTrue());
        assertThat(tp).anyMatch(c -> c.beside().nvlink());
        // Nor are the TP calls, over NVLink, ever another call's company on its RNICs, or given any.
        assertThat(tp).allSatisfy(c -> assertThat(c.concurrent()).isEqualTo(CollectiveRecord.Concurrent.NONE));
        assertThat(dp).allSatisfy(c -> assertThat(c.concurrent().longest()).doesNotContain("/tp("));
        assertThat(SummaryText.render(r, null)).contains("; the ideal is the call alone, and 1 other item of the"
                + " workload had flows on its RNICs meanwhile (traffic item 1 for ");
        // And the job as a whole: the background was on its ranks' RNICs, which its network wait includes.
        assertThat(r.jobs().get(0).beside().longest()).isEqualTo("traffic item 1");
        assertThat(r.jobs().get(0).beside().overlapPs()).isPositive().isLessThanOrEqualTo(r.jobs().get(0).jctPs());
        assertThat(SummaryText.render(r, null)).contains("; the ideal is the job alone, and 1 other item of the"
                + " workload had flows on its ranks' RNICs meanwhile (traffic item 1 for ");
    }

    @Test
    void shouldCountAFlowStillUnderWayAtTheRunsEndAndNoCallInsideAServer() {
        // A 1 GB flow into h0 posted at 50 us is still running when the run stops at 5 ms: it was on h0's RNIC
        // from its post to the end, and the all-reduce on h0-h3 had it beside it.
        RunResult r = run(BASE + "  - {kind: flow, src: 4, dst: 0, size: 1GB, start: 50us}\nrun: {stop-at: 5ms}\n");
        CollectiveRecord call = r.collectives().get(0);
        assertThat(r.flows().get(r.flows().size() - 1).completed()).isFalse();
        assertThat(call.beside().longest()).isEqualTo("traffic item 2");
        long end = call.completed() ? call.endPs() : r.simulatedPs();
        assertThat(call.beside().overlapPs()).isEqualTo(end - Math.max(call.startPs(), 50_000_000L));

        // An all-reduce of two GPUs of one server moves its data over NVLink: nothing is beside it on RNICs it does
        // not use, though background flows leave from those GPUs' hosts.
        RunResult nvlink = run("""
                name: nvl
                fabric: {mode: roce-lossless}
                topology: {kind: rail-optimized, servers: 2, gpus-per-server: 2, spines: 1, link: {rate: 100Gbps}}
                nvlink: {rate: 3600Gbps, latency: 1us}
                traffic:
                  - {kind: allreduce, ranks: 0-1, size: 16MB}
                  - {kind: flow, src: 0, dst: 2, size: 8MB}
                  - {kind: flow, src: 1, dst: 3, size: 8MB}
                """);
        assertThat(nvlink.collectives().get(0).beside()).isEqualTo(CollectiveRecord.Beside.NONE);
    }

    /**
     * A call inside one server moves its data over NVLink: what shares that NVLink is beside it. A 4-GPU AllReduce
     * (alone: its ideal time to the picosecond) beside another item's PXN AlltoAll, whose hops cross the same GPUs'
     * NVLink, took 1.06x its ideal, and nothing said why.
     */
    @Test
    void shouldNameAnotherItemsTransfersOverTheNvlinkOfACallInsideAServer() {
        String yaml = """
                name: nvl-beside
                fabric: {mode: roce-lossless, mtu: 4096}
                topology: {kind: rail-optimized, servers: 2, gpus-per-server: 4, spines: 2,
                           link: {rate: 100Gbps, delay: 500ns}}
                nvlink: {rate: 1800Gbps, latency: 1us}
                nic: {cc: dcqcn, ack-every: 8}
                traffic:
                  - {kind: allreduce, ranks: 0-3, size: 64MB}
                """;
        CollectiveRecord alone = run(yaml).collectives().get(0);
        assertThat(alone.timePs()).isEqualTo(alone.idealTimePs());
        assertThat(alone.beside()).isEqualTo(CollectiveRecord.Beside.NONE);
        RunResult r = run(yaml + "  - {kind: alltoall, ranks: 0-7, size: 8MB, algorithm: pxn, start: 200us}\n");
        CollectiveRecord call = r.collectives().get(0);
        assertThat(call.timePs()).isGreaterThan(alone.timePs());
        assertThat(call.beside().nvlink()).isTrue();
        assertThat(call.beside().items()).isEqualTo(1);
        assertThat(call.beside().longest()).isEqualTo("traffic item 2");
        assertThat(call.beside().overlapPs()).isPositive().isLessThan(call.timePs() / 10);
        // Less than a tenth of the call, but as long as the time it lost against its ideal: said.
        assertThat(call.beside().overlapPs() * 2).isGreaterThanOrEqualTo(call.timePs() - call.idealTimePs());
        assertThat(SummaryText.render(r, null)).contains("; the ideal is the call alone, and 1 other item of the"
                + " workload had transfers over its GPUs' NVLink meanwhile (traffic item 2 for ");
        // The AlltoAll's own flows cross RNICs: its company there is told as before.
        assertThat(r.collectives().get(1).beside().nvlink()).isFalse();
    }
}
