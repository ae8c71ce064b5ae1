package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.congestion.ecn.EcnParameters;
import rocelab.scenario.ScenarioConfig;
import rocelab.scenario.device.ImportNote;
import rocelab.scenario.device.SwitchConfig;
import rocelab.scenario.lint.Lint;
import rocelab.scenario.lint.Severity;

/** Import of a SONiC config_db.json into switch settings; what is not applied is reported. */
class SonicImportTest {
    @TempDir
    Path dir;

    private static final String NESTED = """
            {
                "DEVICE_METADATA": {"localhost": {"hostname": "leaf0"}},
                "PORT": {"Ethernet0": {"speed": "100000", "mtu": "9100"}},
                "DSCP_TO_TC_MAP": {"AZURE": {"0": "1", "3": "3", "4": "4", "26": "3", "48": "6"}},
                "TC_TO_PRIORITY_GROUP_MAP": {"AZURE": {"0": "0", "1": "0", "3": "3", "4": "4"}},
                "PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "AZURE", "tc_to_pg_map": "AZURE", "pfc_enable": "3,4"}},
                "WRED_PROFILE": {"AZURE_LOSSLESS": {"ecn": "ecn_all", "green_min_threshold": "250000",
                    "green_max_threshold": "2097152", "green_drop_probability": "5", "yellow_min_threshold": "1"}},
                "QUEUE": {"Ethernet0|3-4": {"wred_profile": "AZURE_LOSSLESS", "scheduler": "scheduler.1"},
                    "Ethernet0|0-2": {"scheduler": "scheduler.0"}, "Ethernet0|6": {"scheduler": "strict"}},
                "SCHEDULER": {"scheduler.0": {"type": "DWRR", "weight": "14"},
                    "scheduler.1": {"type": "DWRR", "weight": "15"}, "strict": {"type": "STRICT", "meter_type": "x"}},
                "BUFFER_POOL": {"ingress_lossless_pool": {"size": "10875072", "xoff": "4194112"}},
                "BUFFER_PROFILE": {"pg_lossless": {"pool": "ingress_lossless_pool", "xoff": "268736",
                    "xon_offset": "2288", "dynamic_th": "-3"}},
                "BUFFER_PG": {"Ethernet0|3-4": {"profile": "pg_lossless"}},
                "PFC_WD": {"Ethernet0": {"action": "drop", "detection_time": "300"}, "GLOBAL": {"POLL_INTERVAL": "100"}}
            }
            """;

    private ScenarioConfig read(String json, String entry) throws Exception {
        Files.writeString(dir.resolve("db.json"), json);
        String yaml = """
                name: t
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                switch: {buffer: 16MB}
                switches:
                  - %s
                traffic: [{kind: flow, src: 0, dst: 3, size: 1KB}]
                """.formatted(entry);
        return new ScenarioReader().read(yaml, "t.yaml", dir);
    }

    private static SwitchConfig sw(ScenarioConfig c, String name) {
        return c.devices().switches().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void shouldApplyTheRoceSubsetToTheChosenSwitches() throws Exception {
        ScenarioConfig c = read(NESTED, "{role: leaf, sonic: db.json}");
        SwitchConfig leaf = sw(c, "leaf0");
        assertThat(leaf.trafficClass(26)).isEqualTo(3);
        assertThat(leaf.trafficClass(0)).isEqualTo(1);
        assertThat(leaf.trafficClass(10)).isZero(); // DSCPs the map leaves out: class 0
        assertThat(leaf.pfc().losslessMask()).isEqualTo(1 << 3 | 1 << 4);
        assertThat(leaf.pfc().alpha()).isEqualTo(0.125);
        assertThat(leaf.pfc().resumeOffsetBytes()).isEqualTo(2288);
        assertThat(leaf.headroomByPort()).containsOnly(268_736L);
        assertThat(leaf.parameters().bufferBytes()).isEqualTo(10_875_072L);
        assertThat(leaf.pfc().watchdog().enabled()).isTrue();
        assertThat(leaf.pfc().watchdog().detectionPs()).isEqualTo(300_000_000_000L);
        assertThat(leaf.pfc().watchdog().restorationPs()).isEqualTo(600_000_000_000L); // SONiC: 2 x detection
        assertThat(leaf.pfc().watchdog().pollPs()).isEqualTo(100_000_000_000L);
        EcnParameters ecn = leaf.ecn(0);
        assertThat(ecn.scheme()).isEqualTo(EcnParameters.Scheme.RED);
        assertThat(ecn.kminBytes()).isEqualTo(250_000L);
        assertThat(ecn.kmaxBytes()).isEqualTo(2_097_152L);
        assertThat(ecn.pmax()).isEqualTo(0.05);
        assertThat(ecn.classMask()).isEqualTo(1 << 3 | 1 << 4);
        assertThat(leaf.mtuByPort()).containsOnly(9100);
        assertThat(leaf.parameters().dwrrWeights()).containsExactly(14, 14, 14, 15, 15, 14, 14, 14);
        assertThat(leaf.parameters().strictClasses()).isEqualTo(1 << 6);
        SwitchConfig spine = sw(c, "spine0");
        assertThat(spine.parameters().bufferBytes()).isEqualTo(16_000_000L);
        assertThat(spine.pfc().losslessMask()).isEqualTo(1 << 3);
    }

    @Test
    void shouldReadTheFlatShapeLikeTheNestedOne() throws Exception {
        String flat = """
                {
                  "DSCP_TO_TC_MAP|AZURE": {"0": "1", "3": "3", "4": "4", "26": "3", "48": "6"},
                  "PORT_QOS_MAP|Ethernet0": {"dscp_to_tc_map": "AZURE", "pfc_enable": "3,4"},
                  "BUFFER_POOL|ingress_lossless_pool": {"size": "10875072"},
                  "BUFFER_PROFILE|pg_lossless": {"xoff": "268736", "dynamic_th": "-3"},
                  "BUFFER_PG|Ethernet0|3-4": {"profile": "pg_lossless"},
                  "PFC_WD|Ethernet0": {"action": "drop", "detection_time": "300"}
                }
                """;
        SwitchConfig leaf = sw(read(flat, "{name: leaf0, sonic: db.json}"), "leaf0");
        assertThat(leaf.trafficClass(26)).isEqualTo(3);
        assertThat(leaf.pfc().losslessMask()).isEqualTo(1 << 3 | 1 << 4);
        assertThat(leaf.headroomByPort()).containsOnly(268_736L);
        assertThat(leaf.parameters().bufferBytes()).isEqualTo(10_875_072L);
        assertThat(leaf.pfc().watchdog().detectionPs()).isEqualTo(300_000_000_000L);
    }

    @Test
    void shouldLetTheEntrysOwnKeysOverrideTheImport() throws Exception {
        SwitchConfig leaf = sw(read(NESTED, "{role: leaf, sonic: db.json, buffer: 20MB, pfc: {alpha: 0.5}}"),
                "leaf1");
        assertThat(leaf.parameters().bufferBytes()).isEqualTo(20_000_000L);
        assertThat(leaf.pfc().alpha()).isEqualTo(0.5);
        assertThat(leaf.pfc().losslessMask()).isEqualTo(1 << 3 | 1 << 4);
    }

    @Test
    void shouldReportWhatWasNotAppliedAsLintFindings() throws Exception {
        ScenarioConfig c = read(NESTED, "{role: leaf, sonic: db.json}");
        assertThat(c.devices().importNotes()).extracting(ImportNote::text)
                .anyMatch(t -> t.contains("SCHEDULER|strict field meter_type is not applied"))
                .anyMatch(t -> t.contains("queues [5, 7] have no scheduler in QUEUE; DWRR weight 14 applied"))
                .anyMatch(t -> t.contains("shared headroom pool"))
                .anyMatch(t -> t.contains("yellow_min_threshold"))
                .anyMatch(t -> t.contains("not about RoCE QoS: DEVICE_METADATA"))
                // Lossy classes sharing priority group 0 behave the same in the model: not reported.
                .noneMatch(t -> t.contains("TC_TO_PRIORITY_GROUP_MAP"));
        var findings = Lint.check(c).of("I1");
        assertThat(findings).anyMatch(f -> f.severity() == Severity.WARNING && f.what().contains("meter_type"));
        assertThat(findings).anyMatch(f -> f.severity() == Severity.INFO && f.what().contains("DEVICE_METADATA"));
    }

    @Test
    void shouldMarkOnlyTheQueuesThatQueueBindsAProfileTo() throws Exception {
        // An audit's variants: the import applied the WRED profile to the lossless classes whatever QUEUE bound, so a
        // profile bound to no queue marked RoCE, one bound to lossy queues only marked the lossless ones, and a second
        // profile vanished without a note.
        String unbound = NESTED.replace("\"wred_profile\": \"AZURE_LOSSLESS\", ", "");
        ScenarioConfig c = read(unbound, "{name: leaf0, sonic: db.json}");
        assertThat(sw(c, "leaf0").ecn(0).scheme()).isEqualTo(EcnParameters.Scheme.NONE);
        assertThat(c.devices().importNotes()).extracting(ImportNote::text).contains("db.json:7:40: WRED_PROFILE"
                + "|AZURE_LOSSLESS is bound to no queue in QUEUE; not applied (an unbound profile marks nothing on a"
                + " real switch either)");

        String lossyOnly = unbound.replace("\"Ethernet0|0-2\": {", "\"Ethernet0|0-2\": {\"wred_profile\": \"AZURE_LOSSLESS\", ");
        EcnParameters ecn = sw(read(lossyOnly, "{name: leaf0, sonic: db.json}"), "leaf0").ecn(0);
        assertThat(ecn.scheme()).isEqualTo(EcnParameters.Scheme.RED);
        assertThat(ecn.classMask()).isEqualTo(0b111);

        String two = NESTED.replace("\"Ethernet0|0-2\": {", "\"Ethernet0|0-2\": {\"wred_profile\": \"LOSSY_ECN\", ")
                .replace("\"WRED_PROFILE\": {", "\"WRED_PROFILE\": {\"LOSSY_ECN\": {\"ecn\": \"ecn_all\"}, ");
        ScenarioConfig both = read(two, "{name: leaf0, sonic: db.json}");
        assertThat(sw(both, "leaf0").ecn(0).classMask()).isEqualTo(1 << 3 | 1 << 4);
        assertThat(sw(both, "leaf0").ecn(0).kminBytes()).isEqualTo(250_000L);
        assertThat(Lint.check(both).of("I1")).anyMatch(f -> f.what().equals("db.json:10:43: QUEUE|Ethernet0|0-2"
                + " binds WRED profile LOSSY_ECN to queues [0, 1, 2]; not applied: the model marks with one ECN"
                + " profile per switch, and AZURE_LOSSLESS was applied to classes [3, 4]"));
    }

    @Test
    void shouldSayWhatARealSwitchDoesWithALosslessClassInALossyPriorityGroup() throws Exception {
        // An audit's variant: class 3 in priority group 0. A real switch drops RoCE there (no PFC); the simulation
        // runs it lossless. The note said only "not applied", and lint reported no error.
        String pg0 = NESTED.replace("\"3\": \"3\", \"4\": \"4\"}},\n    \"PORT_QOS_MAP\"",
                "\"3\": \"0\", \"4\": \"4\"}},\n    \"PORT_QOS_MAP\"");
        assertThat(pg0).isNotEqualTo(NESTED);
        ScenarioConfig c = read(pg0, "{name: leaf0, sonic: db.json}");
        assertThat(c.devices().importNotes()).extracting(ImportNote::text).contains("db.json:5:69:"
                + " TC_TO_PRIORITY_GROUP_MAP maps traffic class 3 to priority group 0. On a real switch class 3's"
                + " traffic is admitted to lossy priority group 0: the switch sends no PFC for it and drops it when"
                + " the buffer fills (RoCE loss, go-back-N retransmissions), although priority 3 is lossless on the"
                + " port; the simulation does not model it: it keeps class 3 in priority group 3, lossless, so its"
                + " run differs from the real switch");
    }

    @Test
    void shouldReportTheProfileOfALossyPriorityGroup() throws Exception {
        // An audit's variant: a lossy group's profile (dynamic_th -7) vanished without a note.
        String lossy = NESTED.replace("\"BUFFER_PG\": {", "\"BUFFER_PG\": {\"Ethernet0|0\": {\"profile\": \"lossy\"}, ")
                .replace("\"BUFFER_PROFILE\": {", "\"BUFFER_PROFILE\": {\"lossy\": {\"size\": \"5000\","
                        + " \"dynamic_th\": \"-7\"}, ");
        ScenarioConfig c = read(lossy, "{name: leaf0, sonic: db.json}");
        assertThat(c.devices().importNotes()).extracting(ImportNote::text).anyMatch(t -> t.matches("db\\.json:\\d+:\\d+:"
                + " BUFFER_PG\\|Ethernet0\\|0 gives lossy priority group \\[0] profile lossy \\(dynamic_th -7: the group"
                + " may hold 1/128 x the free pool, size 5000 B reserved\\); not applied: .*"));
    }

    @Test
    void shouldReadAStaticThresholdProfile() throws Exception {
        String json = NESTED.replace("\"dynamic_th\": \"-3\"", "\"static_th\": \"300000\"");
        SwitchConfig leaf = sw(read(json, "{name: leaf0, sonic: db.json}"), "leaf0");
        assertThat(leaf.pfc().dynamic()).isFalse();
        assertThat(leaf.pfc().xoffBytes()).isEqualTo(300_000L);
        assertThat(leaf.pfc().xonBytes()).isEqualTo(300_000L - 2288);
    }

    @Test
    void shouldPointAtTheJsonWhenItIsWrong() {
        String dangling = NESTED.replace("\"dscp_to_tc_map\": \"AZURE\"", "\"dscp_to_tc_map\": \"AZURE2\"");
        assertThatThrownBy(() -> read(dangling, "{name: leaf0, sonic: db.json}"))
                .hasMessageContaining("db.json:6:54: DSCP_TO_TC_MAP has no map named 'AZURE2'; expected one of AZURE");
        assertThatThrownBy(() -> read("{\"PORT\": {\n  \"Ethernet0\": \n}", "{name: leaf0, sonic: db.json}"))
                .hasMessageStartingWith("db.json:3:1: malformed JSON");
        // What YAML would read but SONiC's JSON loaders refuse (an audit's trailing comma loaded without a word).
        assertThatThrownBy(() -> read("{\"PORT\": {\"Ethernet0\": {\"mtu\": \"9100\",}}}", "{name: leaf0, sonic: db.json}"))
                .hasMessageStartingWith("db.json:1:39: malformed JSON: Unexpected character ('}'")
                .hasMessageContaining("expected a SONiC config_db.json (strict JSON, as SONiC loads it)");
        assertThatThrownBy(() -> read("{\"PORT\": {\"Ethernet0\": {\"mtu\": 9100 # jumbo\n}}}",
                "{name: leaf0, sonic: db.json}")).hasMessageStartingWith("db.json:1:37: malformed JSON");
        assertThatThrownBy(() -> read("{\"PORT\": {Ethernet0: {\"mtu\": \"9100\"}}}", "{name: leaf0, sonic: db.json}"))
                .hasMessageStartingWith("db.json:1:11: malformed JSON");
        assertThatThrownBy(() -> read(NESTED, "{name: leaf0, sonic: missing.json}"))
                .hasMessageStartingWith("t.yaml:6:26: cannot read the SONiC config");
        // An audit's variant: a queue index out of range in a QUEUE key was reported as a pfc_enable priority.
        assertThatThrownBy(() -> read(NESTED.replace("Ethernet0|0-2", "Ethernet0|0-8"), "{name: leaf0, sonic: db.json}"))
                .hasMessageContaining("db.json:10:26: the key Ethernet0|0-8 holds 8, out of range; expected 0..7");
        assertThatThrownBy(() -> read(NESTED.replace("\"26\": \"3\"", "\"26\": \"9\""), "{name: leaf0, sonic: db.json}"))
                .hasMessageContaining("db.json:4:70: traffic class 9 is out of range");
        // Values that are each valid but wrong together, or too small for the fabric: the JSON, not the YAML entry.
        assertThatThrownBy(() -> read(NESTED.replace("\"250000\"", "\"3000000\""), "{name: leaf0, sonic: db.json}"))
                .hasMessage("db.json:7:82: WRED_PROFILE|AZURE_LOSSLESS green_min_threshold (3000000 B) is above its"
                        + " green_max_threshold (2097152 B); expected green_min_threshold <= green_max_threshold");
        assertThatThrownBy(() -> read(NESTED.replace("\"10875072\"", "\"1000\""), "{name: leaf0, sonic: db.json}"))
                .hasMessageStartingWith("db.json:13:55: the switch buffer (1,000 B) is too small for the PFC"
                        + " headroom that leaf0 reserves");
    }

    @Test
    void shouldReadOnlyFilesBelowTheScenariosFolderUnlessThePathIsAbsolute() throws Exception {
        Path scenarioDir = Files.createDirectories(dir.resolve("scenarios"));
        Files.writeString(dir.resolve("outside.json"), NESTED);
        String yaml = """
                name: t
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
                switches:
                  - {name: leaf0, sonic: %s}
                traffic: [{kind: flow, src: 0, dst: 3, size: 1KB}]
                """;
        assertThatThrownBy(() -> new ScenarioReader().read(yaml.formatted("../outside.json"), "t.yaml", scenarioDir))
                .hasMessageStartingWith("t.yaml:5:26: sonic: ../outside.json leads outside the scenario's folder")
                .hasMessageContaining("expected a path below it, or an absolute path");
        // A symbolic link inside the folder that points out of it is outside too.
        Files.createSymbolicLink(scenarioDir.resolve("link.json"), dir.resolve("outside.json"));
        assertThatThrownBy(() -> new ScenarioReader().read(yaml.formatted("link.json"), "t.yaml", scenarioDir))
                .hasMessageContaining("sonic: link.json leads outside the scenario's folder");
        ScenarioConfig absolute = new ScenarioReader().read(
                yaml.formatted(dir.resolve("outside.json").toAbsolutePath()), "t.yaml", scenarioDir);
        assertThat(sw(absolute, "leaf0").parameters().bufferBytes()).isEqualTo(10_875_072L);
    }

    @Test
    void shouldApplyThePortsDscpMapOverTheGlobalOne() throws Exception {
        // An audit's variant: config_db.json sorts its keys, so "Ethernet0" comes before "global"; the import let the
        // global row (SONiC's switch-level map, which a port's own map overrides: sonic-swss qosorch.cpp) win
        // silently, classifying DSCP 26 as class 3 where the real port puts it in class 1.
        String json = """
                {
                  "DSCP_TO_TC_MAP": {"A": {"26": "3"}, "B": {"26": "1"}},
                  "PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "B", "pfc_enable": "3"},
                                   "global": {"dscp_to_tc_map": "A"}}
                }
                """;
        ScenarioConfig c = read(json, "{name: leaf0, sonic: db.json}");
        assertThat(sw(c, "leaf0").trafficClass(26)).isEqualTo(1);
        assertThat(c.devices().importNotes()).extracting(ImportNote::text).contains("db.json:4:49:"
                + " PORT_QOS_MAP|global dscp_to_tc_map A is the switch-level map, which SONiC uses only on ports"
                + " without a map of their own; not applied: the ports' B is");
        // Without a port map, the global one classifies.
        ScenarioConfig g = read(json.replace("\"dscp_to_tc_map\": \"B\", ", ""), "{name: leaf0, sonic: db.json}");
        assertThat(sw(g, "leaf0").trafficClass(26)).isEqualTo(3);
    }

    @Test
    void shouldMarkNothingWithAnEcnModeThatSkipsGreenPackets() throws Exception {
        // An audit's variant: ecn_yellow marks only yellow packets; every packet is green in the model, yet the
        // import marked with the green thresholds. An ecn value outside sonic-wred-profile.yang's enum was taken too.
        ScenarioConfig c = read(NESTED.replace("ecn_all", "ecn_yellow"), "{name: leaf0, sonic: db.json}");
        assertThat(sw(c, "leaf0").ecn(0).scheme()).isEqualTo(EcnParameters.Scheme.NONE);
        assertThat(c.devices().importNotes()).extracting(ImportNote::text).contains("WRED_PROFILE|AZURE_LOSSLESS has"
                + " ecn ecn_yellow: it marks only yellow packets, and every packet is green here: no ECN marking (WRED"
                + " drop is not modelled)");
        assertThat(sw(read(NESTED.replace("ecn_all", "ecn_green_red"), "{name: leaf0, sonic: db.json}"), "leaf0")
                .ecn(0).scheme()).isEqualTo(EcnParameters.Scheme.RED);
        assertThatThrownBy(() -> read(NESTED.replace("ecn_all", "ecn_on"), "{name: leaf0, sonic: db.json}"))
                .hasMessageStartingWith("db.json:7:48: 'ecn_on' is not a WRED_PROFILE ecn mode; expected one of"
                        + " ecn_none, ");
    }

    @Test
    void shouldStartTheWatchdogOnlyWhereSonicWould() throws Exception {
        // An audit's variants: PFC_WD with only its GLOBAL row (the watchdog runs on no port), a port row without
        // detection_time (orchagent refuses it) and an empty pfcwd_sw_enable (no priority watched) each turned the
        // watchdog on with the default 200 ms.
        String globalOnly = NESTED.replace("\"Ethernet0\": {\"action\": \"drop\", \"detection_time\": \"300\"}, ", "");
        ScenarioConfig c = read(globalOnly, "{name: leaf0, sonic: db.json}");
        assertThat(sw(c, "leaf0").pfc().watchdog().enabled()).isFalse();
        assertThat(c.devices().importNotes()).extracting(ImportNote::text).anyMatch(t -> t.startsWith("PFC_WD has no"
                + " port row with a detection_time: the real switch runs the watchdog on no port"));
        ScenarioConfig noDetection = read(NESTED.replace("\"detection_time\": \"300\"", "\"restoration_time\": \"300\""),
                "{name: leaf0, sonic: db.json}");
        assertThat(sw(noDetection, "leaf0").pfc().watchdog().enabled()).isFalse();
        assertThat(noDetection.devices().importNotes()).extracting(ImportNote::text).anyMatch(t -> t.matches(
                "db\\.json:\\d+:\\d+: PFC_WD\\|Ethernet0 has no detection_time: SONiC refuses the row and runs no"
                        + " watchdog on that port"));
        ScenarioConfig empty = read(NESTED.replace("\"pfc_enable\": \"3,4\"", "\"pfc_enable\": \"3,4\", \"pfcwd_sw_enable\": \"\""),
                "{name: leaf0, sonic: db.json}");
        assertThat(sw(empty, "leaf0").pfc().watchdog().enabled()).isFalse();
        ScenarioConfig one = read(NESTED.replace("\"pfc_enable\": \"3,4\"", "\"pfc_enable\": \"3,4\", \"pfcwd_sw_enable\": \"3\""),
                "{name: leaf0, sonic: db.json}");
        assertThat(sw(one, "leaf0").pfc().watchdog().enabled()).isTrue();
        assertThat(one.devices().importNotes()).extracting(ImportNote::text).contains("PORT_QOS_MAP pfcwd_sw_enable"
                + " [3] differs from the lossless priorities [3, 4]; not applied: the simulated watchdog watches every"
                + " lossless priority");
    }

    @Test
    void shouldReportPortsWithoutPfcOrWredThatOtherPortsHave() throws Exception {
        // An audit's variant: Ethernet4 had no pfc_enable and no WRED binding (on the real switch: no PFC, no
        // marking there), and the import applied Ethernet0's settings to it without a word.
        String json = NESTED.replace("\"PORT_QOS_MAP\": {", "\"PORT_QOS_MAP\": {\"Ethernet4\": {\"dscp_to_tc_map\": \"AZURE\"}, ");
        ScenarioConfig c = read(json, "{name: leaf0, sonic: db.json}");
        assertThat(c.devices().importNotes()).extracting(ImportNote::text)
                .contains("PORT_QOS_MAP|Ethernet4 has no pfc_enable (on the real switch PFC is off on that port); one"
                        + " value per switch is applied: 3,4")
                .contains("QUEUE binds no WRED profile to the queues of Ethernet4, so the real switch marks nothing"
                        + " there; AZURE_LOSSLESS applied to classes [3, 4] on every port (one ECN setting per switch;"
                        + " use ports: ecn to differ)");
    }

    @Test
    void shouldGiveANullProfileTheDynamicModelsDefaultThreshold() throws Exception {
        // An audit's variant (Mellanox dynamic buffer model): buffermgrd sizes a NULL lossless group with
        // DEFAULT_LOSSLESS_BUFFER_PARAMETER's default_dynamic_th (sonic-swss cfgmgr/buffermgrdyn.cpp); the import
        // reported the table as not applied, kept the scenario's alpha, and kept its buffer without a word when the
        // pool had no size.
        String json = """
                {
                  "BUFFER_POOL": {"ingress_lossless_pool": {"type": "ingress", "mode": "dynamic"}},
                  "BUFFER_PG": {"Ethernet0|3-4": {"profile": "NULL"}},
                  "PORT_QOS_MAP": {"Ethernet0": {"pfc_enable": "3,4"}},
                  "DEFAULT_LOSSLESS_BUFFER_PARAMETER": {"AZURE": {"default_dynamic_th": "1", "over_subscribe_ratio": "2"}}
                }
                """;
        ScenarioConfig c = read(json, "{name: leaf0, sonic: db.json}");
        assertThat(sw(c, "leaf0").pfc().alpha()).isEqualTo(2.0);
        assertThat(sw(c, "leaf0").parameters().bufferBytes()).isEqualTo(16_000_000L);
        assertThat(c.devices().importNotes()).extracting(ImportNote::text)
                .contains("BUFFER_POOL|ingress_lossless_pool has no size (the dynamic buffer model computes it on the"
                        + " switch); not applied: the switch keeps the scenario's buffer")
                .contains("DEFAULT_LOSSLESS_BUFFER_PARAMETER|AZURE field over_subscribe_ratio is not applied (no"
                        + " shared headroom pool in the model)")
                .noneMatch(t -> t.contains("table DEFAULT_LOSSLESS_BUFFER_PARAMETER"));
    }

    @Test
    void shouldImportTheShippedExampleWithoutLintErrors() throws Exception {
        ScenarioConfig c = new ScenarioReader().read(Path.of("../scenarios/sonic/leaf-import.yaml"));
        assertThat(sw(c, "leaf0").parameters().bufferBytes()).isEqualTo(10_875_072L);
        assertThat(sw(c, "leaf0").headroomByPort()).containsOnly(268_736L);
        assertThat(sw(c, "spine0").parameters().bufferBytes()).isEqualTo(16_000_000L);
        var report = Lint.check(c);
        assertThat(report.hasErrors()).isFalse();
        assertThat(report.of("L10")).isNotEmpty(); // the SONiC template's CNP class is DWRR, not strict
    }
}
