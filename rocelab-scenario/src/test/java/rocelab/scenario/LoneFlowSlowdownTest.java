package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.observe.journey.JourneyText;
import rocelab.observe.output.SummaryText;

/**
 * The slowdown divides by a closed form, not by a run of the flow alone: a lone DCQCN flow from a 100 Gb/s RNIC to a
 * 25 Gb/s one builds a queue before the slow link, is marked and cuts its rate, and takes 1.37x the closed form with
 * nothing else on the fabric. The summary said "FCT / FCT alone on an idle fabric" and the journey "1.37x the 986 us it
 * would take alone", of a flow that was alone; they now name the closed form.
 */
class LoneFlowSlowdownTest {
    @Test
    void shouldNameTheClosedFormWhenALoneFlowIsSlowerThanIt() {
        RunResult r = Scenarios.assemble("""
                name: lone-mismatch
                fabric: {mode: roce-lossless, mtu: 4096}
                topology:
                  kind: custom
                  hosts: 2
                  switches: [tor0, tor1]
                  links:
                    - {a: h0, b: tor0, rate: 25Gbps, delay: 300ns}
                    - {a: h1, b: tor1, rate: 100Gbps, delay: 1us}
                    - {a: tor0, b: tor1, rate: 400Gbps, delay: 2us}
                nic: {cc: dcqcn}
                observe: {sample-interval: 0}
                traffic:
                  - {kind: flow, src: 1, dst: 0, size: 3MB}
                """).run(ProgressListener.NONE);
        FlowRecord f = r.flows().get(0);
        assertThat(r.flows()).hasSize(1);
        assertThat(f.slowdown()).as("alone, and slower than the closed form").isGreaterThan(1.3);
        String summary = SummaryText.render(r, null);
        assertThat(summary).contains("(FCT / its closed form alone on an idle fabric)")
                .doesNotContain("FCT / FCT alone");
        String journey = new JourneyText(r.network(), r.pfcLog(), r.creditLog()).render(f, List.of(), -1, 0, Long.MAX_VALUE, 10);
        assertThat(journey).contains("us of its closed form alone on an idle fabric").doesNotContain("it would take alone");
    }
}
