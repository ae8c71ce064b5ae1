package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.device.NicConfig;
import rocelab.scenario.device.SwitchConfig;
import rocelab.scenario.device.Trust;
import rocelab.scenario.lint.Finding;
import rocelab.scenario.lint.Lint;
import rocelab.scenario.lint.LintReport;
import rocelab.scenario.lint.Severity;

/** Per-device overrides: selectors, merge order, per-port values, per-host RNIC settings, and their errors. */
class DevicesReaderTest {
    private static final String BASE = """
            name: t
            fabric: {mode: roce-lossless, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            switch: {buffer: 4MB, pfc: {alpha: 0.25}, ecn: {kmin: 100KB, kmax: 400KB}}
            nic: {cc: dcqcn}
            traffic: [{kind: flow, src: 0, dst: 3, size: 1KB}]
            """;

    private static ScenarioConfig read(String extra) throws ScenarioException {
        return new ScenarioReader().read(BASE + extra, "t.yaml", Path.of("."));
    }

    private static SwitchConfig sw(ScenarioConfig c, String name) {
        return c.devices().switches().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void shouldGiveEverySwitchAndRnicTheUniformSettingsWithoutOverrides() throws Exception {
        ScenarioConfig c = read("");
        assertThat(c.devices().switches()).hasSize(4).allSatisfy(s -> {
            assertThat(s.parameters()).isEqualTo(c.switches());
            assertThat(s.pfc()).isEqualTo(c.pfc());
            assertThat(s.ecnByPort()).containsOnly(c.ecn());
            assertThat(s.overridden()).isFalse();
        });
        assertThat(c.devices().nics()).hasSize(4).allSatisfy(n -> {
            assertThat(n.trust()).isEqualTo(Trust.DSCP);
            assertThat(n.pfcMask()).isEqualTo(1 << 3);
            assertThat(n.notificationPoint()).isTrue();
            assertThat(n.parameters()).isEqualTo(c.nic());
        });
    }

    @Test
    void shouldApplyOverridesByRoleNamePatternAndListLaterEntriesWinning() throws Exception {
        ScenarioConfig c = read("""
                switches:
                  - {role: spine, buffer: 8MB}
                  - {name: "leaf*", dscp-to-tc: {26: 4}, pfc: {priorities: [3, 4]}}
                  - {name: [leaf1, spine1], buffer: 6MB}
                """);
        assertThat(sw(c, "spine0").parameters().bufferBytes()).isEqualTo(8_000_000L);
        assertThat(sw(c, "spine1").parameters().bufferBytes()).isEqualTo(6_000_000L);
        assertThat(sw(c, "leaf0").parameters().bufferBytes()).isEqualTo(4_000_000L);
        assertThat(sw(c, "leaf1").parameters().bufferBytes()).isEqualTo(6_000_000L);
        // Nested mappings merge: only DSCP 26 moves, and the leaves keep the uniform alpha.
        assertThat(sw(c, "leaf0").trafficClass(26)).isEqualTo(4);
        assertThat(sw(c, "leaf0").trafficClass(48)).isEqualTo(6);
        assertThat(sw(c, "leaf0").pfc().losslessMask()).isEqualTo(1 << 3 | 1 << 4);
        assertThat(sw(c, "leaf0").pfc().alpha()).isEqualTo(0.25);
        assertThat(sw(c, "spine0").trafficClass(26)).isEqualTo(3);
        assertThat(sw(c, "spine0").pfc().losslessMask()).isEqualTo(1 << 3);
    }

    @Test
    void shouldOverridePortsByIndexAndByNeighbour() throws Exception {
        ScenarioConfig c = read("""
                switches:
                  - name: leaf0
                    mtu: 9100
                    ports:
                      - {to: "spine*", headroom: 200KB, ecn: {marking: step, k: 50KB}}
                      - {port: 0, mtu: 1500}
                """);
        SwitchConfig leaf0 = sw(c, "leaf0");
        // leaf0's ports: h0, h1, then spine0, spine1.
        assertThat(leaf0.headroomByPort()[2]).isEqualTo(200_000L);
        assertThat(leaf0.headroomByPort()[3]).isEqualTo(200_000L);
        assertThat(leaf0.headroomByPort()[0]).isEqualTo(sw(c, "leaf1").headroomByPort()[0]);
        assertThat(leaf0.ecn(2).scheme()).isEqualTo(EcnParameters.Scheme.STEP);
        assertThat(leaf0.ecn(0)).isEqualTo(c.ecn());
        assertThat(leaf0.mtuByPort()).containsExactly(1500, 9100, 9100, 9100);
        assertThat(sw(c, "leaf1").mtuByPort()).containsOnly(0);
    }

    @Test
    void shouldDropTheOtherSchemesThresholdsWhenAnOverrideChangesTheScheme() throws Exception {
        // The uniform section has alpha (dynamic) and kmin/kmax (RED); the override switches to static and step.
        ScenarioConfig c = read("switches: [{name: spine1, pfc: {threshold: static, xoff: 100KB, xon: 50KB},"
                + " ecn: {marking: step, k: 30KB}}]\n");
        SwitchConfig spine1 = sw(c, "spine1");
        assertThat(spine1.pfc().dynamic()).isFalse();
        assertThat(spine1.pfc().xoffBytes()).isEqualTo(100_000L);
        assertThat(spine1.ecn(0).scheme()).isEqualTo(EcnParameters.Scheme.STEP);
        assertThat(spine1.ecn(0).kBytes()).isEqualTo(30_000L);
        assertThat(sw(c, "spine0").pfc().alpha()).isEqualTo(0.25);
    }

    @Test
    void shouldOverrideRnicsPerHost() throws Exception {
        ScenarioConfig c = read("""
                nics:
                  - {hosts: 0-1, trust: pcp, pfc: [], dcqcn: {profile: paper}}
                  - {hosts: 1, np: false, rp: false, dscp-to-priority: {26: 5}}
                """);
        NicConfig h0 = c.devices().nic(0);
        NicConfig h1 = c.devices().nic(1);
        NicConfig h2 = c.devices().nic(2);
        assertThat(h0.trust()).isEqualTo(Trust.PCP);
        assertThat(h0.pfcMask()).isZero();
        assertThat(h0.congestion().profile()).isEqualTo("paper");
        assertThat(h0.notificationPoint()).isTrue();
        assertThat(h1.notificationPoint()).isFalse();
        assertThat(h1.reactionPoint()).isFalse();
        assertThat(h1.dscpToPriority()[26]).isEqualTo(5);
        assertThat(h1.trust()).isEqualTo(Trust.PCP);
        assertThat(h2.trust()).isEqualTo(Trust.DSCP);
        assertThat(h2.congestion().profile()).isNull();
        assertThat(h0.receivePriority(false, 3)).isZero();
        assertThat(h2.receivePriority(false, 3)).isEqualTo(3);
    }

    @Test
    void shouldChangeTheScenarioHashWithOverridesAndKeepItWithout() throws Exception {
        ScenarioConfig plain = read("");
        ScenarioConfig overridden = read("switches: [{name: leaf0, buffer: 5MB}]\n");
        assertThat(plain.canonicalText()).doesNotContain("devices:");
        assertThat(overridden.canonicalText()).contains("devices:").isNotEqualTo(plain.canonicalText());
    }

    @Test
    void shouldReportBadOverridesWithTheirPosition() {
        assertError("switches: [{name: leaf7, buffer: 1MB}]\n", "t.yaml:7:19: no switch is named 'leaf7'");
        assertError("switches: [{role: tor, buffer: 1MB}]\n",
                "t.yaml:7:19: no switch has the role 'tor'; expected one of leaf, spine");
        assertError("switches: [{buffer: 1MB}]\n", "t.yaml:7:12: a switches entry needs name or role");
        assertError("switches: [{name: leaf0, colour: red}]\n", "t.yaml:7:26: unknown key 'colour' in a switches entry");
        assertError("switches: [{name: leaf0, ecmp: {mode: spray}}]\n", "unknown key 'ecmp' in a switches entry");
        assertError("switches: [{name: leaf0, ports: [{port: 9, mtu: 1500}]}]\n",
                "t.yaml:7:41: port 9 is out of range; expected a whole number in 0..3");
        assertError("switches: [{name: leaf0, ports: [{to: h3, mtu: 1500}]}]\n",
                "leaf0 has no port to 'h3'; expected a neighbour of leaf0");
        assertError("switches: [{name: leaf0, ports: [{mtu: 1500}]}]\n", "needs either port");
        assertError("switches: [{name: leaf0, pfc: {alpha: 100}}]\n", "t.yaml:7:39: alpha 100 is out of range");
        assertError("switches: [{name: leaf0, buffer: 100KB}]\n", "the switch buffer (100,000 B) is too small");
        assertError("nics: [{trust: dscp}]\n", "t.yaml:7:8: missing key 'hosts' in a nics entry");
        assertError("nics: [{hosts: 9, trust: dscp}]\n", "host 9 is out of range");
        assertError("nics: [{hosts: 0, trust: vlan}]\n", "t.yaml:7:26: 'vlan' is not a trust mode; expected one of: dscp, pcp");
    }

    @Test
    void shouldReadTheReadmesPerDeviceScenarioAndLintWhatItSays() throws Exception {
        // The README's snippet set DCQCN in a nics entry with no nic.cc (default none): pasted, it was refused.
        String readme = Files.readString(Path.of("../README.md"));
        int start = readme.indexOf("```yaml\nname: per-device\n");
        assertThat(start).as("the README's per-device scenario").isNotNegative();
        start += "```yaml\n".length();
        ScenarioConfig c = new ScenarioReader().read(readme.substring(start, readme.indexOf("```", start)), "t.yaml",
                Path.of("."));
        assertThat(c.devices().nic(0).congestion().profile()).isEqualTo("paper");
        LintReport lint = Lint.check(c);
        assertThat(lint.of("L1")).extracting(Finding::severity).containsExactly(Severity.ERROR);
        assertThat(lint.of("L7")).extracting(Finding::severity).containsExactly(Severity.WARNING);
    }

    @Test
    void shouldRefuseAPriorityListedTwiceInAPfcList() {
        // Duplicate ranks were refused, a duplicate lossless priority accepted silently: [3, 3] may be a typo for [3, 4].
        assertError("switches: [{name: leaf0, pfc: {priorities: [3, 3]}}]\n",
                "t.yaml:7:48: priority 3 is listed twice; expected each priority at most once");
        assertError("nics: [{hosts: 0-1, pfc: [3, 4, 3]}]\n",
                "t.yaml:7:33: priority 3 is listed twice; expected each priority at most once");
    }

    @Test
    void shouldGiveAnRnicEveryNicsEntryThatCoversItLaterEntriesWinning() throws Exception {
        // Two entries covering one host are laid over nic in the order of the list, as switches entries are.
        ScenarioConfig c = read("""
                nics:
                  - {hosts: 0-3, pfc: [3], trust: pcp}
                  - {hosts: 1-2, pfc: [4]}
                  - {hosts: 2, pfc: [5]}
                """);
        assertThat(c.devices().nic(0).pfcMask()).isEqualTo(1 << 3);
        assertThat(c.devices().nic(1).pfcMask()).isEqualTo(1 << 4);
        assertThat(c.devices().nic(2).pfcMask()).isEqualTo(1 << 5);
        assertThat(c.devices().nics()).allSatisfy(n -> assertThat(n.trust()).isEqualTo(Trust.PCP));
    }

    private static void assertError(String extra, String message) {
        assertThatThrownBy(() -> read(extra)).isInstanceOf(ScenarioException.class).hasMessageContaining(message);
    }
}
