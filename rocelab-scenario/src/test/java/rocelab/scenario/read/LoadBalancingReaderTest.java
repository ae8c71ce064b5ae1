package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.engine.Time;
import rocelab.fabric.switching.AdaptiveParameters;
import rocelab.fabric.switching.LoadBalancing;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.Simulation;
import rocelab.scenario.device.SwitchConfig;

/** {@code switch.load-balancing} and its per-switch overrides: values, defaults, precedence, errors. */
class LoadBalancingReaderTest {
    private static final String BASE = """
            name: t
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            traffic: [{kind: flow, src: 0, dst: 3, size: 1KB}]
            """;

    private static ScenarioConfig read(String extra) throws ScenarioException {
        return new ScenarioReader().read(BASE + extra, "t.yaml", Path.of("."));
    }

    private static SwitchConfig sw(ScenarioConfig c, String name) {
        return c.devices().switches().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void shouldReadTheModeAndEveryParameter() throws Exception {
        ScenarioConfig c = read("switch: {load-balancing: {mode: flowlet, bits: 4, quantum: 8KB, utilisation-window:"
                + " 10us, tie-break: round-robin, flowlet-timeout: 12us, flowlet-table: 1024}}\n");
        assertThat(c.switches().loadBalancing()).isEqualTo(LoadBalancing.FLOWLET);
        assertThat(c.switches().adaptive()).isEqualTo(new AdaptiveParameters(4, 8000, Time.us(10),
                AdaptiveParameters.TieBreak.ROUND_ROBIN, Time.us(12), 1024));
        assertThat(read("switch: {load-balancing: {mode: adaptive}}\n").switches().adaptive())
                .isEqualTo(AdaptiveParameters.defaults());
    }

    @Test
    void shouldKeepEcmpModeAsTheOlderSpellingAndLetLoadBalancingWin() throws Exception {
        assertThat(read("switch: {ecmp: {mode: spray}}\n").switches().loadBalancing()).isEqualTo(LoadBalancing.SPRAY);
        assertThat(read("switch: {ecmp: {mode: spray}, load-balancing: {mode: adaptive}}\n").switches()
                .loadBalancing()).isEqualTo(LoadBalancing.ADAPTIVE);
        // Parameters alone keep the mode ecmp.mode gives.
        assertThat(read("switch: {ecmp: {mode: spray}, load-balancing: {bits: 2}}\n").switches().loadBalancing())
                .isEqualTo(LoadBalancing.SPRAY);
    }

    @Test
    void shouldSetTheModePerSwitchThroughOverrides() throws Exception {
        ScenarioConfig c = read("""
                switch: {load-balancing: {mode: flowlet, flowlet-timeout: 5us}}
                switches: [{role: spine, load-balancing: {mode: adaptive, tie-break: hash}}]
                """);
        assertThat(sw(c, "leaf0").parameters().loadBalancing()).isEqualTo(LoadBalancing.FLOWLET);
        assertThat(sw(c, "spine1").parameters().loadBalancing()).isEqualTo(LoadBalancing.ADAPTIVE);
        // Nested mappings merge: the spine keeps the uniform flowlet timeout and takes its own tie-break.
        assertThat(sw(c, "spine1").parameters().adaptive().flowletTimeoutPs()).isEqualTo(Time.us(5));
        assertThat(sw(c, "spine1").parameters().adaptive().tieBreak()).isEqualTo(AdaptiveParameters.TieBreak.HASH);
        Simulation sim = Simulation.assemble(c);
        assertThat(sim.network().switchAt(0).loadBalancing()).isEqualTo(LoadBalancing.FLOWLET);
        assertThat(sim.network().switchAt(2).name()).isEqualTo("spine0");
        assertThat(sim.network().switchAt(2).loadBalancing()).isEqualTo(LoadBalancing.ADAPTIVE);
    }

    @Test
    void shouldKeepTheScenarioHashOfEcmpAndSprayScenariosAndChangeItWithAdaptiveParameters() throws Exception {
        String a = Simulation.scenarioHash(read("switch: {load-balancing: {mode: adaptive}}\n"));
        String b = Simulation.scenarioHash(read("switch: {load-balancing: {mode: adaptive, bits: 2}}\n"));
        assertThat(a).isNotEqualTo(b);
        assertThat(Simulation.scenarioHash(read("switch: {load-balancing: {mode: spray}}\n")))
                .isEqualTo(Simulation.scenarioHash(read("switch: {ecmp: {mode: spray}}\n")));
    }

    @Test
    void shouldReportBadValuesWithTheirPosition() {
        assertError("switch: {load-balancing: {mode: dlb}}\n",
                "t.yaml:5:33: 'dlb' is not a load-balancing mode; expected one of: ecmp, spray, adaptive, flowlet");
        assertError("switch: {load-balancing: {mode: adaptive, colour: red}}\n",
                "t.yaml:5:43: unknown key 'colour' in switch.load-balancing");
        assertError("switch: {load-balancing: {bits: 9}}\n", "t.yaml:5:33: bits 9 is out of range");
        assertError("switch: {load-balancing: {quantum: 0B}}\n", "t.yaml:5:36:");
        assertError("switch: {load-balancing: {tie-break: lowest}}\n",
                "t.yaml:5:38: 'lowest' is not a tie-break; expected one of: random, hash, round-robin");
        assertError("switch: {load-balancing: {flowlet-timeout: 0us}}\n",
                "t.yaml:5:44: flowlet-timeout must be positive");
        assertError("switch: {load-balancing: {flowlet-table: 1000}}\n",
                "t.yaml:5:42: flowlet-table is 1000; expected a power of two");
        assertError("switch: {load-balancing: adaptive}\n", "t.yaml:5:26:");
        assertError("switches: [{name: leaf0, load-balancing: {mode: sprayed}}]\n",
                "t.yaml:5:49: 'sprayed' is not a load-balancing mode");
    }

    private static void assertError(String extra, String message) {
        assertThatThrownBy(() -> read(extra)).isInstanceOf(ScenarioException.class).hasMessageContaining(message);
    }
}
