package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;

/**
 * Idle simulated time costs nothing: a flow that starts at 1000 s runs in as many events as one that starts at 0
 * (plus its start), because neither the time-series sampler nor the run loop step through the idle stretch.
 */
class IdleTimeTest {
    private static final String LATE = """
            name: late
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
            traffic:
              - {kind: flow, src: 0, dst: 1, size: 100KB, start: %s}
            """;

    private static long events(String start, RunResult[] result) {
        Simulation sim = Scenarios.assemble(LATE.formatted(start));
        result[0] = sim.run(ProgressListener.NONE);
        return sim.simulator().eventsProcessed();
    }

    @Test
    void shouldNotSampleThroughIdleTime() {
        RunResult[] early = new RunResult[1];
        RunResult[] late = new RunResult[1];
        long atZero = events("0us", early);
        long atThousandSeconds = events("1000s", late);

        assertThat(late[0].flows()).singleElement().satisfies(f -> assertThat(f.completed()).isTrue());
        // At 10 us per sample, stepping through 1000 s would be 10^8 sampler events.
        assertThat(atThousandSeconds).isBetween(atZero, atZero + 10);
        assertThat(late[0].flows().get(0).fctPs()).isEqualTo(early[0].flows().get(0).fctPs());
    }
}
