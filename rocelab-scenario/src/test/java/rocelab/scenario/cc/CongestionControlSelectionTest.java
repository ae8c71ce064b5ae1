package rocelab.scenario.cc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static rocelab.scenario.cc.CcScenarios.incast;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import rocelab.congestion.CongestionControls;
import rocelab.congestion.dctcp.DctcpControl;
import rocelab.congestion.hpcc.HpccControl;
import rocelab.congestion.swift.SwiftControl;
import rocelab.congestion.timely.TimelyControl;
import rocelab.fabric.congestion.CongestionControl;
import rocelab.fabric.nic.NotificationPointParameters.Mode;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.ProgressListener;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.read.ScenarioException;

/** The four controls are chosen by name in {@code nic.cc} and take their overrides from the block named after them. */
class CongestionControlSelectionTest {
    @ParameterizedTest
    @ValueSource(strings = {"hpcc", "timely", "dctcp", "swift"})
    void shouldRunEveryFlowToCompletionWhenScenarioNamesTheControl(String name) throws ScenarioException {
        ScenarioConfig config = CcScenarios.parse(incast(2, "100KB", "cc: " + name, ""));
        assertThat(config.congestion().name()).isEqualTo(name);
        Simulation sim = Simulation.assemble(config);
        CongestionControl cc = sim.network().queuePairs().get(0).congestionControl();
        assertThat(cc.getClass().getSimpleName().toLowerCase(Locale.ROOT)).startsWith(name);
        RunResult r = sim.run(ProgressListener.NONE);
        assertThat(r.flows()).allMatch(FlowRecord::completed);
        assertThat(CongestionControls.byName(name).orElseThrow().notificationPoint(config.congestion(), 48, 6).mode())
                .as("receivers send no CNPs for controls that do not read them").isEqualTo(Mode.NONE);
        assertThat(r.totals().cnpSent()).isZero();
    }

    @Test
    void shouldRejectUnknownParameterWhenBlockHasATypo() {
        assertThatThrownBy(() -> CcScenarios.parse(incast(2, "100KB", "cc: hpcc, hpcc: {etta: 0.9}", "")))
                .isInstanceOf(ScenarioException.class).hasMessageContaining("etta");
    }

    @Test
    void shouldPassOverridesInBaseUnitsToEachQueuePairWhenBlocksAreGiven() {
        ScenarioConfig hpcc = parseBlock("cc: hpcc, hpcc: {eta: 0.9, max-stage: 0, ai-rate: 80Mbps, base-rtt: 10us}");
        assertThat(hpcc.congestion().overrides()).containsEntry("eta", 0.9).containsEntry("max-stage", 0.0)
                .containsEntry("ai-rate", 8e7).containsEntry("base-rtt", 1e7);
        HpccControl h = (HpccControl) control(hpcc);
        assertThat(h.parameters().eta()).isEqualTo(0.9);
        assertThat(h.parameters().baseRttPs()).isEqualTo(10_000_000L);
        assertThat(h.windowBytes()).isEqualTo(125_000);

        TimelyControl t = (TimelyControl) control(parseBlock("cc: timely, timely: {t-low: 10us, t-high: 100us,"
                + " min-rtt: 5us, beta: 0.5, ai-rate: 50Mbps}"));
        assertThat(t.parameters().tLowPs()).isEqualTo(10_000_000L);
        assertThat(t.parameters().haiRateBps()).isEqualTo(250_000_000L);

        DctcpControl d = (DctcpControl) control(parseBlock("cc: dctcp, dctcp: {g: 1/256, base-rtt: 8us}"));
        assertThat(d.parameters().g()).isEqualTo(1.0 / 256);
        assertThat(d.windowBytes()).isEqualTo(100_000);

        SwiftControl s = (SwiftControl) control(parseBlock("cc: swift, swift: {base-delay: 10us, hop-delay: 0us,"
                + " max-mdf: 0.25, min-cwnd: 64B, mss: 1000B}"));
        assertThat(s.parameters().baseDelayPs()).isEqualTo(10_000_000L);
        assertThat(s.wantsTelemetry()).isFalse();
        assertThat(s.parameters().minCwndBytes()).isEqualTo(64);
    }

    private static CongestionControl control(ScenarioConfig config) {
        return Simulation.assemble(config).network().queuePairs().get(0).congestionControl();
    }

    /** Parses a scenario whose {@code nic} has an override block. */
    private static ScenarioConfig parseBlock(String nic) {
        try {
            return CcScenarios.parse(incast(2, "100KB", nic, ""));
        } catch (ScenarioException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }
}
