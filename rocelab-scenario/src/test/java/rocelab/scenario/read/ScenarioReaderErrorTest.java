package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.congestion.CongestionControls;
import rocelab.scenario.ScenarioConfig;

class ScenarioReaderErrorTest {
    private static final String HEAD = "name: t\nfabric: {mode: roce-lossy}\n";
    private static final String TOPO = "topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps}}\n";
    private static final String FLOW = "traffic:\n  - {kind: flow, src: 1, dst: 0, size: 1MB}\n";
    private static final String CSV = "a CSV file with the header src_host,dst_host,size_bytes,start_ns";

    private final ScenarioReader reader = new ScenarioReader();

    @TempDir
    Path dir;

    private ScenarioException error(String yaml) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> reader.read(yaml, "t.yaml", dir));
        assertThat(t).isInstanceOf(ScenarioException.class);
        return (ScenarioException) t;
    }

    private void assertError(String yaml, String message) {
        assertThat(error(yaml).getMessage()).isEqualTo(message);
    }

    @Test
    void shouldExposePositionPartsWhenAnErrorIsReported() {
        ScenarioException e = error(HEAD + TOPO + FLOW + "colour: blue\n");
        assertThat(e.file()).isEqualTo("t.yaml");
        assertThat(e.line()).isEqualTo(6);
        assertThat(e.column()).isEqualTo(1);
        assertThat(e.detail()).isEqualTo("unknown key 'colour' in the scenario; expected one of: name, seed, fabric,"
                + " topology, switch, nic, traffic, jobs, inference, nvlink, run, observe, faults, events, switches, nics,"
                + " links");
        assertThat(e.getStackTrace()).isEmpty();
    }

    @Test
    void shouldRefuseOutOfOrderSettingsOutOfRange() {
        assertThat(error(HEAD + TOPO + "nic: {ooo: true, ooo-window: 1000}\n" + FLOW).getMessage())
                .startsWith("t.yaml:4:30: ooo-window is 1000; expected a power of two");
        assertThat(error(HEAD + TOPO + "nic: {ooo: true, ooo-window: 128, ooo-reorder: 128}\n" + FLOW).getMessage())
                .startsWith("t.yaml:4:").contains("ooo-reorder").contains("127");
        assertThat(error(HEAD + TOPO + "nic: {ooo: yes please}\n" + FLOW).getMessage()).startsWith("t.yaml:4:")
                .contains("ooo");
    }

    @Test
    void shouldReportProblemMarkWhenYamlIsMalformed() {
        assertError("name: t\nfabric: {mode: roce-lossy\ntopology: {kind: single-switch}\n",
                "t.yaml:3:9: malformed YAML: while parsing a flow mapping, expected ',' or '}', but got :; expected"
                        + " well-formed YAML (check indentation, colons and quotes)");
        assertError("name: t\nfabric:\n  mode: roce-lossy\n mtu: 1000\n",
                "t.yaml:4:2: malformed YAML: while parsing a block mapping, expected <block end>, but found"
                        + " '<block mapping start>'; expected well-formed YAML (check indentation, colons and quotes)");
    }

    @Test
    void shouldReportEmptyFileWhenThereIsNoDocument() {
        assertError("# nothing\n", "t.yaml:1:1: the file is empty; expected a mapping with at least the keys name,"
                + " fabric, topology and traffic");
    }

    @Test
    void shouldReportUnknownKeyWhenNestedKeyIsMisspelt() {
        assertError(HEAD + "topology: {kind: single-switch, host: 4, link: {rate: 100Gbps}}\n" + FLOW,
                "t.yaml:3:33: unknown key 'host' in topology (single-switch); expected one of: kind, hosts, link, planes,"
                        + " plane-selection");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: flow, src: 1, dst: 0, size: 1MB, extra: 1}\n",
                "t.yaml:5:45: unknown key 'extra' in traffic item 1 (flow); expected one of: kind, src, dst, size,"
                        + " start, dscp");
    }

    @Test
    void shouldReportMissingKeyAtTheMappingWhenRequiredKeyIsAbsent() {
        assertError("fabric: {mode: roce-lossy}\n" + TOPO + FLOW, "t.yaml:1:1: missing key 'name' in the scenario;"
                + " expected name: a plain file name of letters, digits, '.', '_' or '-', starting with a letter or"
                + " digit (e.g. incast-16to1)");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: flow, src: 1, dst: 0}\n", "t.yaml:5:5: missing key 'size'"
                + " in traffic item 1 (flow); expected size: a number of bytes, optionally with a unit: B, KB, MB, GB,"
                + " KiB, MiB, GiB (e.g. 4MiB)");
        assertError(HEAD + FLOW, "t.yaml:1:1: missing key 'topology' in the scenario; expected topology: a mapping"
                + " with a kind: single-switch, leaf-spine, fat-tree, rail-optimized, custom or ns3");
    }

    @Test
    void shouldReportUnitWhenRateUnitIsWrong() {
        assertError(HEAD + "topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbs}}\n" + FLOW,
                "t.yaml:3:56: '100Gbs' is not a rate; expected a number with a unit: bps, Kbps, Mbps, Gbps, Tbps,"
                        + " also written Gb/s, Gbit/s or G (e.g. 100Gbps, 400G)");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: flow, src: 1, dst: 0, size: 1MB, start: 5}\n",
                "t.yaml:5:52: '5' has no unit; expected a number with a unit: ps, ns, us, ms, s (e.g. 1.5us), or 0");
    }

    @Test
    void shouldRejectRateWhenZeroOrNegative() {
        assertError(HEAD + "topology: {kind: single-switch, hosts: 4, link: {rate: 0Gbps}}\n" + FLOW,
                "t.yaml:3:56: '0Gbps' is zero; expected a rate above 0 bit/s (e.g. 100Gbps)");
        assertError(HEAD + "topology: {kind: single-switch, hosts: 4, link: {rate: -1Gbps}}\n" + FLOW,
                "t.yaml:3:56: '-1Gbps' is negative; expected a rate (a number with a unit: bps,"
                        + " Kbps, Mbps, Gbps, Tbps, also written Gb/s, Gbit/s or G (e.g. 100Gbps, 400G))");
    }

    @Test
    void shouldReportHostOutOfRangeAtTheValueWhenIndexExceedsTopology() {
        assertError(HEAD + TOPO + "traffic:\n  - {kind: flow, src: 1, dst: 4, size: 1MB}\n",
                "t.yaml:5:31: host 4 is out of range; expected 0..3 (the topology has 4 hosts)");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: incast, senders: 1-5, receiver: 0, size: 1MB}\n",
                "t.yaml:5:31: host 5 is out of range; expected 0..3 (the topology has 4 hosts)");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: incast, senders: \"1, 2-3, 9\", receiver: 0, size: 1MB}\n",
                "t.yaml:5:38: host 9 is out of range; expected 0..3 (the topology has 4 hosts)");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: incast, senders: [1, -2], receiver: 0, size: 1MB}\n",
                "t.yaml:5:33: host -2 is out of range; expected 0..3 (the topology has 4 hosts)");
    }

    @Test
    void shouldRejectIncastWhenReceiverIsAlsoASender() {
        assertError(HEAD + TOPO + "traffic:\n  - {kind: incast, senders: 1-3, receiver: 2, size: 1MB}\n",
                "t.yaml:5:44: the receiver 2 is also a sender; expected a receiver that is not among the senders");
    }

    @Test
    void shouldReportDisconnectedHostsAtTopologyKeyWhenCustomFabricIsSplit() {
        assertError(HEAD + """
                topology:
                  kind: custom
                  hosts: 5
                  switches: [tor0, tor1]
                  link: {rate: 100Gbps}
                  links:
                    - {a: h0, b: tor0}
                    - {a: h1, b: tor0}
                    - {a: h2, b: tor0}
                    - {a: h3, b: tor1}
                    - {a: h4, b: tor1}
                """ + FLOW, "t.yaml:3:1: topology is disconnected: hosts h3, h4 cannot reach h0; expected every host"
                + " to reach every other host through switches");
    }

    /** A custom fabric of h0 on tor0 and {@code cut} hosts h1.. on tor1, which no link joins to tor0. */
    private static String split(int cut) {
        StringBuilder b = new StringBuilder(HEAD + "topology:\n  kind: custom\n  hosts: " + (cut + 1)
                + "\n  switches: [tor0, tor1]\n  link: {rate: 100Gbps}\n  links:\n    - {a: h0, b: tor0}\n");
        for (int h = 1; h <= cut; h++) {
            b.append("    - {a: h").append(h).append(", b: tor1}\n");
        }
        return b + FLOW;
    }

    @Test
    void shouldNameTheEleventhDisconnectedHostRatherThanCountIt() {
        // Eleven hosts cut off: the message named ten and said "and 1 more"; it names all eleven. Twelve: ten and
        // "2 more".
        assertError(split(11), "t.yaml:3:1: topology is disconnected: hosts h1, h2, h3, h4, h5, h6, h7, h8, h9, h10,"
                + " h11 cannot reach h0; expected every host to reach every other host through switches");
        assertError(split(12), "t.yaml:3:1: topology is disconnected: hosts h1, h2, h3, h4, h5, h6, h7, h8, h9, h10"
                + " and 2 more cannot reach h0; expected every host to reach every other host through switches");
    }

    @Test
    void shouldReportUnknownNodeAtTheNameWhenCustomLinkNamesNoNode() {
        assertError(HEAD + """
                topology:
                  kind: custom
                  hosts: 2
                  switches: [tor0]
                  link: {rate: 100Gbps}
                  links:
                    - {a: h0, b: tor0}
                    - {a: h1, b: tor9}
                """ + FLOW, "t.yaml:10:18: unknown node 'tor9'; expected a host h0..h1 or a switch (tor0)");
    }

    @Test
    void shouldRejectCustomLinkWhenItHasNoRateAndThereIsNoDefault() {
        assertError(HEAD + """
                topology:
                  kind: custom
                  hosts: 2
                  switches: [s]
                  links: [{a: h0, b: s, rate: 1Gbps}, {a: h1, b: s}]
                """ + FLOW, "t.yaml:7:39: the link h1 - s has no rate and the topology has no default link; expected"
                + " rate: on this link, or a topology-level link: {rate: ..., delay: ...}");
    }

    @Test
    void shouldRejectCustomLinkWhenHostIsLinkedTwice() {
        assertError(HEAD + """
                topology:
                  kind: custom
                  hosts: 2
                  switches: [s, t]
                  link: {rate: 100Gbps}
                  links:
                    - {a: h0, b: s}
                    - {a: t, b: h0}
                """ + FLOW, "t.yaml:10:17: host h0 is already linked on line 9; expected one link per host (an RNIC"
                + " has one port)");
    }

    @Test
    void shouldReportResolvedPathWhenFlowsFileIsMissing() {
        String expected = "t.yaml:5:29: file not found: " + dir.resolve("perm128.csv").toAbsolutePath()
                + "; expected " + CSV;
        assertError(HEAD + TOPO + "traffic:\n  - {kind: flows-csv, file: perm128.csv}\n", expected);
    }

    @Test
    void shouldReportCsvFileLineAndColumnWhenRowIsBad() throws Exception {
        Path base = ScenarioReaderTest.resource("custom-csv.yaml").getParent();
        String yaml = HEAD + TOPO + "traffic:\n  - {kind: flows-csv, file: flows/%s}\n";
        assertThatThrownBy(() -> reader.read(yaml.formatted("bad-row.csv"), "scen/t.yaml", base))
                .hasMessage("scen/flows/bad-row.csv:3:10: start_ns '1.5' is not a whole number; expected a whole"
                        + " number of nanoseconds >= 0 (no unit)");
        assertThatThrownBy(() -> reader.read(yaml.formatted("bad-header.csv"), "scen/t.yaml", base))
                .hasMessage("scen/flows/bad-header.csv:1:1: the header is 'src,dst,size,start'; expected the header"
                        + " src_host,dst_host,size_bytes,start_ns");
        assertThatThrownBy(() -> reader.read(yaml.formatted("bad-host.csv"), "scen/t.yaml", base))
                .hasMessage("scen/flows/bad-host.csv:3:3: host 9 is out of range; expected 0..3 (the topology has 4"
                        + " hosts)");
    }

    @Test
    void shouldSayANegativeCsvNumberIsTooSmallNotThatItIsNoWholeNumber() throws Exception {
        String yaml = HEAD + TOPO + "traffic:\n  - {kind: flows-csv, file: f.csv}\n";
        Files.writeString(dir.resolve("f.csv"), "src_host,dst_host,size_bytes,start_ns\n0,1,-100,0\n");
        assertError(yaml, "f.csv:2:5: size_bytes -100 is too small; expected a whole number of bytes >= 1 (no unit)");
        Files.writeString(dir.resolve("f.csv"), "src_host,dst_host,size_bytes,start_ns\n0,1,100,-5\n");
        assertError(yaml, "f.csv:2:9: start_ns -5 is negative; expected a whole number of nanoseconds >= 0 (no unit)");
        Files.writeString(dir.resolve("f.csv"), "src_host,dst_host,size_bytes,start_ns\n-1,1,100,0\n");
        assertError(yaml, "f.csv:2:1: src_host -1 is negative; expected a host index 0..3");
    }

    @Test
    void shouldReportFieldCountWhenCsvRowHasTooFewOrTooManyFields() throws Exception {
        String yaml = HEAD + TOPO + "traffic:\n  - {kind: flows-csv, file: f.csv}\n";
        Files.writeString(dir.resolve("f.csv"), "src_host,dst_host,size_bytes,start_ns\n0,1,100\n");
        assertError(yaml, "f.csv:2:8: the row has 3 fields; expected 4 fields: src_host,dst_host,size_bytes,start_ns");
        Files.writeString(dir.resolve("f.csv"), "src_host,dst_host,size_bytes,start_ns\n0,1,100,0,7\n");
        assertError(yaml, "f.csv:2:11: the row has 5 fields; expected 4 fields: src_host,dst_host,size_bytes,start_ns");
        Files.writeString(dir.resolve("f.csv"), "src_host,dst_host,size_bytes,start_ns\n\n2,2,100,0\n");
        assertError(yaml, "f.csv:3:3: the flow goes from host 2 to itself; expected a dst_host different from"
                + " src_host");
        Files.writeString(dir.resolve("f.csv"), "src_host,dst_host,size_bytes,start_ns\n");
        assertError(yaml, "f.csv:2:1: the file has no flows; expected at least one row after the header"
                + " src_host,dst_host,size_bytes,start_ns");
        Files.writeString(dir.resolve("f.csv"), "src_host,dst_host,size_bytes,start_ns\n0,1,9223372036854775807,0\n");
        assertError(yaml, "f.csv:2:5: size_bytes 9223372036854775807 is more than 1 PiB; expected at most"
                + " 1125899906842624 bytes");
    }

    @Test
    void shouldNameXonWhenAStaticXonIsAboveXoff() {
        assertError("name: t\nfabric: {mode: roce-lossless}\n" + TOPO + FLOW
                + "switch: {pfc: {threshold: static, xoff: 1KB, xon: 2KB}}\n",
                "t.yaml:6:51: xon 2000 B is above xoff 1000 B; expected xon <= xoff (XON resumes once the queue has"
                        + " drained below XOFF)");
    }

    @Test
    void shouldRejectAnUnknownMode() {
        assertError("name: t\nfabric: {mode: ethernet}\n" + TOPO + FLOW,
                "t.yaml:2:16: 'ethernet' is not a fabric mode; expected roce-lossy, roce-lossless, infiniband");
    }

    @Test
    void shouldRejectWhatInfinibandDoesNotHaveAndInfinibandSettingsElsewhere() {
        String ib = "name: t\nfabric: {mode: infiniband, mtu: 4096";
        assertError(ib + ", vlan: true}\n" + TOPO + FLOW,
                "t.yaml:2:39: an InfiniBand fabric has no VLAN tag; expected no vlan key in infiniband mode");
        assertError(ib + "}\n" + TOPO + "switch: {ecn: {marking: red}}\n" + FLOW,
                "t.yaml:4:10: switch.ecn marks IP ECN, which InfiniBand packets do not carry; expected"
                        + " fabric.infiniband.fecn for IB congestion control marking");
        assertError("name: t\nfabric: {mode: infiniband, mtu: 9000}\n" + TOPO + FLOW,
                "t.yaml:2:33: mtu of 9000 bytes is above the largest InfiniBand path MTU; expected at most 4096 bytes"
                        + " in infiniband mode");
        assertError(ib + "}\n" + TOPO + "switch: {mtu: 9100}\n" + FLOW,
                "t.yaml:4:15: mtu 9100 is not an InfiniBand MTU; expected one of 256, 512, 1024, 2048, 4096 (in"
                        + " infiniband mode a port's MTU is the largest payload it carries, headers on top)");
        assertError(ib + "}\n" + TOPO + "switch: {buffer: 4MB}\n" + FLOW,
                "t.yaml:4:10: switch.buffer is an Ethernet switch's shared buffer; expected fabric.infiniband.vl-buffer"
                        + " (input buffer per port and lane) in infiniband mode");
        assertError(ib + "}\n" + TOPO + "switch: {scheduler: {kind: strict}}\n" + FLOW,
                "t.yaml:4:10: switch.scheduler schedules Ethernet traffic classes; expected"
                        + " fabric.infiniband.vl-arbitration in infiniband mode");
        assertError(ib + "}\n" + TOPO + "nic: {cc: dcqcn}\n" + FLOW,
                "t.yaml:4:11: cc 'dcqcn' is a RoCE congestion control; expected none or ib-cc in infiniband mode");
        // nic.ecn: false made every packet ineligible for FECN marking, silently (an audit's ib-cc incast: 0 marks).
        String ecnRefused = "nic.ecn makes RoCE data ECN-capable in its IP header, which InfiniBand packets do not"
                + " have; expected no ecn in infiniband mode, where switches mark FECN as fabric.infiniband.fecn says";
        assertError(ib + "}\n" + TOPO + "nic: {cc: ib-cc, ecn: false}\n" + FLOW, "t.yaml:4:18: " + ecnRefused);
        // A congestion control's value out of its own range is said at that value, not at its block's start.
        assertError(ib + "}\n" + TOPO + "nic: {cc: ib-cc, ib-cc: {ccti-increase: 1, ccti-limit: 20000}}\n" + FLOW,
                "t.yaml:4:56: ccti-limit must be 0..16383 (a CCT has at most 16384 entries), got 20000; expected valid"
                        + " values for nic.ib-cc");
        assertError(ib + "}\n" + TOPO + "nics:\n  - {hosts: 1, ecn: false}\n" + FLOW, "t.yaml:5:16: " + ecnRefused);
        // What switch: refuses, a switches entry read and ignored (ecn none, buffer 4MB, a strict scheduler, another
        // dscp-to-tc: each ran byte for byte the same).
        assertError(ib + "}\n" + TOPO + "switches: [{name: switch0, ecn: {marking: none}}]\n" + FLOW,
                "t.yaml:4:28: a switches entry's ecn marks IP ECN, which InfiniBand packets do not carry; expected"
                        + " fabric.infiniband.fecn for IB congestion control marking");
        assertError(ib + "}\n" + TOPO + "switches: [{role: leaf, buffer: 4MB}]\n" + FLOW,
                "t.yaml:4:25: a switches entry's buffer is an Ethernet switch's shared buffer; expected"
                        + " fabric.infiniband.vl-buffer (input buffer per port and lane) in infiniband mode");
        assertError(ib + "}\n" + TOPO + "switches: [{name: switch0, dscp-to-tc: {26: 1}}]\n" + FLOW,
                "t.yaml:4:28: a switches entry's dscp-to-tc would give this switch service levels of its own, but an"
                        + " InfiniBand packet keeps the one its HCA set; expected switch.dscp-to-tc (one map for the"
                        + " fabric) in infiniband mode");
        assertError(ib + "}\n" + TOPO + "switches: [{name: switch0, ports: [{port: 0, ecn: {marking: none}}]}]\n"
                + FLOW, "t.yaml:4:46: a ports entry's ecn marks IP ECN, which InfiniBand packets do not carry;"
                        + " expected fabric.infiniband.fecn for IB congestion control marking");
        // RoCE-only RNIC settings were read and ignored: priority 5, trust pcp, PFC on [1] ran byte for byte the same.
        assertError(ib + "}\n" + TOPO + "nic: {priority: 5}\n" + FLOW, "t.yaml:4:7: nic.priority is a RoCE RNIC's"
                + " 802.1p priority for its data (the class PFC pauses); expected no priority in infiniband mode, where"
                + " an HCA sends on the service level of its DSCP's class (switch.dscp-to-tc) and credits keep every"
                + " lane lossless");
        assertError(ib + "}\n" + TOPO + "nics:\n  - {hosts: 1, pfc: [1]}\n" + FLOW, "t.yaml:5:16: nic.pfc is a"
                + " RoCE RNIC's PFC priorities; expected no pfc in infiniband mode, where an HCA sends on the service"
                + " level of its DSCP's class (switch.dscp-to-tc) and credits keep every lane lossless");
        assertError("name: t\nfabric: {mode: roce-lossy}\n" + TOPO + "nic: {cc: ib-cc}\n" + FLOW,
                "t.yaml:4:11: ib-cc is InfiniBand congestion control (FECN/BECN); expected fabric: {mode:"
                        + " infiniband}, or a RoCE control such as dcqcn");
        assertError("name: t\nfabric: {mode: roce-lossy, infiniband: {}}\n" + TOPO + FLOW,
                "t.yaml:2:28: fabric.infiniband applies to fabric mode infiniband only; expected fabric: {mode:"
                        + " infiniband, ...} or no infiniband block");
        assertError(ib + ", infiniband: {vl-buffer: 4KiB}}\n" + TOPO + FLOW,
                "t.yaml:2:63: vl-buffer of 4096 B cannot hold one 4138 B packet at mtu 4096; expected at least"
                        + " 4160 B");
        assertError(ib + ", infiniband: {hca-buffer: 1MiB}}\n" + TOPO + FLOW,
                "t.yaml:2:64: hca-buffer of 1048576 B is above 128 KiB; expected at most 2048 credits of 64 B per"
                        + " lane (IBA credit counters are 12 bits, modulo 4096)");
        assertError(ib + ", infiniband: {sl-to-vl: [0, 1, 2, 5], vl-arbitration: {low: [{vl: 3, weight: 10}]}}}\n"
                + TOPO + FLOW, "t.yaml:2:92: VL0 (SL 0) has no weight in the VL arbitration tables, so it could"
                        + " never send; expected every lane that sl-to-vl uses in high or low with a weight above 0");
        assertError(ib + ", infiniband: {fecn: {threshold: 10KB, rate: 3}}}\n" + TOPO + FLOW,
                "t.yaml:2:76: unknown key 'rate' in fabric.infiniband.fecn; expected one of: threshold, marking-rate,"
                        + " packet-size, victim-mask");
    }

    @Test
    void shouldRejectPfcSettingsWhenTheFabricIsLossy() {
        assertError(HEAD + TOPO + "switch: {pfc: {alpha: 0.5}}\n" + FLOW,
                "t.yaml:4:15: switch.pfc applies to fabric mode roce-lossless only; expected fabric: {mode:"
                        + " roce-lossless} to use PFC, or no pfc settings");
    }

    @Test
    void shouldRejectCongestionControlWhenItIsUnknown() {
        assertError(HEAD + TOPO + "nic: {cc: bbr}\n" + FLOW,
                "t.yaml:4:11: 'bbr' is not a congestion control; expected one of: "
                        + String.join(", ", CongestionControls.names()));
    }

    @Test
    void shouldRejectDcqcnProfileWhenUnknown() {
        assertError(HEAD + TOPO + "nic: {cc: dcqcn, dcqcn: {profile: cisco}}\n" + FLOW,
                "t.yaml:4:35: 'cisco' is not a dcqcn profile; expected one of: paper, nvidia, hpcc-ns3");
    }

    @Test
    void shouldRejectHpccIntHopsWhenAPacketCannotRecordThatMany() {
        assertThat(error(HEAD + TOPO + "nic: {cc: hpcc, hpcc: {int-hops: 9}}\n" + FLOW).getMessage())
                .startsWith("t.yaml:4:34: int-hops must be 0 to 8 (the hops a packet records), got 9");
    }

    @Test
    void shouldRejectSettingsBlockWhenItIsForAnotherControl() {
        assertError(HEAD + TOPO + "nic: {cc: none, dcqcn: {profile: paper}}\n" + FLOW,
                "t.yaml:4:17: settings for 'dcqcn' but cc is 'none'; expected settings for the chosen congestion"
                        + " control only (cc: one of " + String.join(", ", CongestionControls.names())
                        + ")");
    }

    @Test
    void shouldRejectStepThresholdWhenMarkingIsRed() {
        assertError(HEAD + TOPO + "switch: {ecn: {marking: red, k: 100KB}}\n" + FLOW,
                "t.yaml:4:30: k applies to step marking only; expected marking: step, or kmin/kmax/pmax for RED");
    }

    /**
     * One RED threshold given and the other scaled with the port's rate could cross: kmax: 100KB alone left a 100 Gb/s
     * port's Kmin at 400 KB, and the run marked every packet above 400 KB and none below (an audit's held 350 KB queue:
     * 801 marks, all in the start-up overshoot, where RED's ramp between the two would mark every one above 100 KB).
     */
    @Test
    void shouldRejectRedThresholdsWhenTheScaledOneCrossesTheGivenOneOnSomePort() {
        assertError(HEAD + TOPO + "switch: {ecn: {marking: red, kmax: 100KB}}\n" + FLOW,
                "t.yaml:4:36: kmax (100000 B) is below kmin at switch0 port 0 (towards h0), 400000 B (4 KB per Gb/s"
                        + " of its 100 Gb/s); expected kmax >= kmin on every port: give kmin too, or a kmax of at least"
                        + " 400000 B");
        assertError(HEAD + TOPO + "switch: {ecn: {kmin: 2MB}}\n" + FLOW,
                "t.yaml:4:22: kmin (2000000 B) is above kmax at switch0 port 0 (towards h0), 1600000 B (16 KB per"
                        + " Gb/s of its 100 Gb/s); expected kmax >= kmin on every port: give kmax too, or a kmin of at"
                        + " most 1600000 B");
        // Said at the port entry that set it, for the port it crosses on.
        assertError(HEAD + TOPO + "switches: [{name: switch0, ports: [{port: 2, ecn: {kmax: 200KB}}]}]\n" + FLOW,
                "t.yaml:4:58: kmax (200000 B) is below kmin at switch0 port 2 (towards h2), 400000 B (4 KB per Gb/s"
                        + " of its 100 Gb/s); expected kmax >= kmin on every port: give kmin too, or a kmax of at least"
                        + " 400000 B");
        // Where they do not cross (a 400 KB Kmin on these ports), one threshold alone is fine.
        assertThat(catchThrowable(() -> reader.read(HEAD + TOPO + "switch: {ecn: {kmax: 400KB}}\n" + FLOW, "t.yaml",
                dir))).isNull();
    }

    @Test
    void shouldRejectDcqcnGainWhenOutOfRange() {
        assertError(HEAD + TOPO + "nic: {cc: dcqcn, dcqcn: {g: 2}}\n" + FLOW,
                "t.yaml:4:29: g must be in (0, 1), 0 and 1 excluded; expected valid values for nic.dcqcn");
    }

    /**
     * Each QP resolves its congestion control's values at its own RNIC's line rate. They were checked when the scenario
     * was read at a fixed 100 Gb/s: a DCQCN min-rate of 50 Gb/s on a 25 Gb/s RNIC passed the reader and stopped the run
     * with an internal error (exit 1) when the first QP was created, and 200 Gb/s on a 400 Gb/s fabric was refused as
     * above the line rate. Now every RNIC's line rate is checked, and the error points at the key that breaks it.
     */
    @Test
    void shouldCheckCongestionControlValuesAtEachRnicsOwnLineRate() throws Exception {
        String slow = "topology: {kind: custom, hosts: 3, switches: [s], links: [{a: h0, b: s, rate: 100Gbps},"
                + " {a: h1, b: s, rate: 25Gbps}, {a: h2, b: s, rate: 100Gbps}]}\n";
        assertError(HEAD + slow + "nic: {cc: dcqcn, dcqcn: {min-rate: 50Gbps}}\n" + FLOW,
                "t.yaml:4:36: min rate must be positive and at most the line rate (h1's QPs run at 25 Gb/s); expected"
                        + " valid values for nic.dcqcn");
        // Only the slow RNIC's own settings: a per-host override that gives it its own min-rate is checked at its rate.
        assertError(HEAD + slow + "nic: {cc: dcqcn}\nnics:\n  - {hosts: 1, dcqcn: {profile: paper, min-rate: 30Gbps}}\n"
                + FLOW, "t.yaml:6:50: min rate must be positive and at most the line rate (h1's QPs run at 25 Gb/s);"
                        + " expected valid values for nic.dcqcn");
        reader.read(HEAD + slow + "nic: {cc: dcqcn, dcqcn: {min-rate: 20Gbps}}\n" + FLOW, "t.yaml", dir);
        // At 400 Gb/s a min-rate of 200 Gb/s is below the line rate.
        reader.read(HEAD + "topology: {kind: single-switch, hosts: 4, link: {rate: 400Gbps}}\n"
                + "nic: {cc: dcqcn, dcqcn: {min-rate: 200Gbps}}\n" + FLOW, "t.yaml", dir);
        // A multi-plane RNIC's QPs keep to one plane each (per-qp): 800 Gb/s over 2 planes is 400 Gb/s per QP.
        String planes = "topology: {kind: single-switch, hosts: 4, planes: 2, link: {rate: 800Gbps}}\n";
        assertError(HEAD + planes + "nic: {cc: dcqcn, dcqcn: {min-rate: 500Gbps}}\n" + FLOW,
                "t.yaml:4:36: min rate must be positive and at most the line rate (h0's QPs run at 400 Gb/s); expected"
                        + " valid values for nic.dcqcn");
        // The key that breaks it, not the block: max-cut alone, next to valid values.
        assertError(HEAD + TOPO + "nic: {cc: dcqcn, dcqcn: {g: 1/16, max-cut: 0, ai-rate: 10Mbps}}\n" + FLOW,
                "t.yaml:4:44: max cut must be in (0, 1]; expected valid values for nic.dcqcn");
    }

    @Test
    void shouldTellAParametersOwnRangeAlikeOnEitherSideAndNameNoHostItDoesNotDependOn() {
        // g: 2 (outside every fraction) and g: 1 (a fraction, outside g's own range) are refused in the same words;
        // neither names a host, as g's range holds at every line rate (the audit's "(h0's QPs run at ...)").
        String message = "g must be in (0, 1), 0 and 1 excluded; expected valid values for nic.dcqcn";
        assertError(HEAD + TOPO + "nic: {cc: dcqcn, dcqcn: {g: 2}}\n" + FLOW, "t.yaml:4:29: " + message);
        assertError(HEAD + TOPO + "nic: {cc: dcqcn, dcqcn: {g: 1}}\n" + FLOW, "t.yaml:4:29: " + message);
        assertError(HEAD + TOPO + "nic: {cc: dcqcn, dcqcn: {alpha-period: 0us}}\n" + FLOW,
                "t.yaml:4:40: alpha period must be positive; expected valid values for nic.dcqcn");
    }

    @Test
    void shouldReportSecondOccurrenceWhenKeyIsDuplicated() {
        assertError("name: t\nseed: 1\nseed: 2\nfabric: {mode: roce-lossy}\n" + TOPO + FLOW,
                "t.yaml:3:1: duplicate key 'seed' in the scenario (first given on line 2); expected each key at most"
                        + " once");
        assertError(HEAD + TOPO + "switch: {dscp-to-tc: {26: 3, 026: 4}}\n" + FLOW,
                "t.yaml:4:30: DSCP 26 is mapped twice (first on line 4); expected each DSCP at most once");
    }

    @Test
    void shouldRejectSwitchSettingsWhenValuesAreInvalid() {
        assertError(HEAD + TOPO + "switch: {ecmp: {hash: crc16}}\n" + FLOW,
                "t.yaml:4:23: 'crc16' is not an ECMP hash; expected one of: crc32, xor, murmur3");
        assertError(HEAD + TOPO + "switch: {scheduler: {weights: [1, 2, 3]}}\n" + FLOW,
                "t.yaml:4:31: weights has 3 entries; expected 8 weights, one per traffic class 0..7");
        assertError(HEAD + TOPO + "switch: {buffer: 0}\n" + FLOW,
                "t.yaml:4:18: buffer '0' is too small; expected a size of at least 1 byte");
        assertError(HEAD + TOPO + "switch: {dscp-to-tc: {64: 1}}\n" + FLOW,
                "t.yaml:4:23: DSCP 64 is out of range; expected a whole number in 0..63");
    }

    @Test
    void shouldLocateTheAliasAndTheNestingThatCrossTheLimits() {
        StringBuilder aliases = new StringBuilder(HEAD + TOPO + FLOW + "x: &a [1]\ny:\n");
        for (int i = 0; i < 101; i++) {
            aliases.append("  - *a\n");
        }
        // HEAD, TOPO and FLOW take 5 lines, x and y two more: the 101st alias is on line 108.
        assertThat(catchThrowable(() -> new ScenarioReader().read(aliases.toString(), "t.yaml", Path.of("."))))
                .hasMessageStartingWith("t.yaml:108:5: malformed YAML: Number of aliases for non-scalar nodes exceeds");
        String nested = "name: t\nx: " + "[".repeat(60) + "]".repeat(60) + "\n";
        assertThat(catchThrowable(() -> new ScenarioReader().read(nested, "t.yaml", Path.of("."))))
                .hasMessageStartingWith("t.yaml:2:").hasMessageContaining("Nesting Depth exceeded");
    }

    @Test
    void shouldRejectATimeBeyondTheSimulatedRange() {
        assertError(HEAD + TOPO + "traffic:\n  - {kind: flow, src: 1, dst: 0, size: 1MB, start: 9223372036854775807ps}\n",
                "t.yaml:5:52: '9223372036854775807ps' is beyond the simulated time range; expected a time of at most"
                        + " 4611686s (about 53 days)");
    }

    @Test
    void shouldRefuseAnAutoHeadroomTooLargeToCompute() {
        // 2 x 1 Ms of cable at 10^18 bit/s: more bytes than a long holds. It must fail the buffer check, not wrap
        // around to a negative headroom that passes it.
        String message = error("name: t\nfabric: {mode: roce-lossless}\ntopology: {kind: single-switch, hosts: 2,"
                + " link: {rate: 1000000Tbps, delay: 1000000s}}\n" + FLOW).getMessage();
        assertThat(message).contains("is too small for the PFC headroom").doesNotContain(": -");
    }

    @Test
    void shouldRejectLocalTags() {
        assertError(HEAD.replace("fabric: {", "fabric: !fabric {") + TOPO + FLOW,
                "t.yaml:2:9: tag '!fabric' is not part of the scenario format; expected plain YAML values without"
                        + " tags");
    }

    @Test
    void shouldRejectFabricAndRunValuesWhenOutOfRange() {
        assertError("name: t\nfabric: {mode: roce-lossy, mtu: 32}\n" + TOPO + FLOW,
                "t.yaml:2:33: mtu of 32 bytes is out of range; expected 64..65475 bytes (an IPv4 packet holds at"
                        + " most 65535 bytes, 60 of them RoCEv2 headers)");
        // 65476 bytes of payload made a 65536-byte IPv4 packet, whose 16-bit total length wrapped around to 0.
        assertError("name: t\nfabric: {mode: roce-lossless, mtu: 65476}\n" + TOPO + FLOW,
                "t.yaml:2:36: mtu of 65476 bytes is out of range; expected 64..65475 bytes (an IPv4 packet holds at"
                        + " most 65535 bytes, 60 of them RoCEv2 headers)");
        assertError(HEAD + TOPO + FLOW + "run: {stop-at: 0}\n",
                "t.yaml:6:16: stop-at is 0; expected a time above 0 (e.g. 10ms)");
        assertError("name: my scenario\nfabric: {mode: roce-lossy}\n" + TOPO + FLOW,
                "t.yaml:1:7: 'my scenario' is not a valid name; expected a plain file name of letters, digits, '.',"
                        + " '_' or '-', starting with a letter or digit (e.g. incast-16to1)");
    }

    /**
     * {@code traffic: []} beside jobs is no traffic, as the key left out is (nccl-tests took it already; run
     * refused it with "expected at least one traffic item" though the jobs are the workload).
     */
    @Test
    void shouldTakeAnEmptyTrafficListBesideJobs() throws ScenarioException {
        String jobs = "jobs:\n  - {name: j, hosts: 0-1, parallelism: {dp: 2}, program: [{op: allreduce, group: dp,"
                + " size: 1MB}]}\n";
        ScenarioConfig empty = new ScenarioReader().read(HEAD + TOPO + "traffic: []\n" + jobs, "t.yaml", Path.of("."));
        ScenarioConfig omitted = new ScenarioReader().read(HEAD + TOPO + jobs, "t.yaml", Path.of("."));
        assertThat(empty.traffic()).isEmpty();
        assertThat(omitted.traffic()).isEmpty();
        assertThat(empty.jobs()).singleElement().satisfies(j -> {
            assertThat(j.name()).isEqualTo(omitted.jobs().get(0).name());
            assertThat(j.program()).hasSameSizeAs(omitted.jobs().get(0).program());
        });
    }

    @Test
    void shouldReportShapeWhenValueHasTheWrongType() {
        assertError(HEAD + "topology: {kind: single-switch, hosts: [4], link: {rate: 100Gbps}}\n" + FLOW,
                "t.yaml:3:40: hosts is a list; expected a whole number in 2..1000000");
        assertError(HEAD + TOPO + "traffic: {kind: flow}\n", "t.yaml:4:10: traffic is a mapping; expected a list of"
                + " traffic items, each with a kind");
        assertError(HEAD + TOPO + "traffic: []\n", "t.yaml:4:10: traffic is empty and the scenario has no jobs or"
                + " inference services, so nothing would run; expected at least one traffic item (or jobs: a list of"
                + " AI jobs, or inference: a list of inference services)");
        assertError(HEAD + "topology: {kind: torus, link: {rate: 100Gbps}}\n" + FLOW,
                "t.yaml:3:18: 'torus' is not a topology kind; expected one of: single-switch, leaf-spine, fat-tree,"
                        + " rail-optimized, custom, ns3");
    }

    @Test
    void shouldPointIntoSendersWhenRangeIsBackwardsOrRepeated() {
        assertError(HEAD + TOPO + "traffic:\n  - {kind: incast, senders: \"1,3-2\", receiver: 0, size: 1MB}\n",
                "t.yaml:5:32: the range 3-2 runs backwards; expected low-high, e.g. 2-3");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: incast, senders: \"1-3,2\", receiver: 0, size: 1MB}\n",
                "t.yaml:5:34: host 2 is listed twice among the senders; expected each sender once");
        // The same host set names ranks too: the message says so, not "senders".
        assertError(HEAD + TOPO + "traffic:\n  - {kind: allreduce, ranks: [0, 1, 1, 2], size: 1MB}\n",
                "t.yaml:5:37: host 1 is listed twice in ranks; expected each host once");
        // As a lossless priority listed twice is, for the switches and for the RNICs.
        String lossless = "name: t\nfabric: {mode: roce-lossless}\n" + TOPO;
        assertError(lossless + "switch: {pfc: {priorities: [3, 3]}}\n" + FLOW,
                "t.yaml:4:32: priority 3 is listed twice; expected each priority at most once");
        assertError(lossless + "nic: {pfc: [3, 3]}\n" + FLOW,
                "t.yaml:4:16: priority 3 is listed twice; expected each priority at most once");
    }

    @Test
    void shouldNameTheSingleHostWhenOnlyOneHostIsCutOff() {
        assertError(HEAD + """
                topology:
                  kind: custom
                  hosts: 3
                  switches: [s]
                  links: [{a: h0, b: s, rate: 1Gbps}, {a: h1, b: s, rate: 1Gbps}]
                """ + FLOW, "t.yaml:3:1: topology is disconnected: host h2 cannot reach h0; expected every host to"
                + " reach every other host through switches");
    }

    @Test
    void shouldNameTheFileWhenScenarioFileDoesNotExist() {
        Path missing = dir.resolve("none.yaml");
        assertThatThrownBy(() -> reader.read(missing)).isInstanceOf(ScenarioException.class)
                .hasMessage(missing + ":1:1: file not found: " + missing.toAbsolutePath().normalize()
                        + "; expected a scenario file");
    }

    @Test
    void shouldReportBadAllReduceWhenAlgorithmOrRanksAreWrong() {
        assertError(HEAD + TOPO + "traffic:\n  - {kind: allreduce, ranks: 0-3, size: 1MB, algorithm: fancy}\n",
                "t.yaml:5:57: 'fancy' is not an algorithm of AllReduce; expected one of: ring, halving-doubling, recursive-doubling, tree,"
                        + " hierarchical");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: allreduce, ranks: 0-4, size: 1MB}\n",
                "t.yaml:5:32: host 4 is out of range; expected 0..3 (the topology has 4 hosts)");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: allreduce, ranks: 2, size: 1MB}\n",
                "t.yaml:5:30: AllReduce needs at least 2 ranks; expected two or more hosts");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: allreduce, ranks: 0-3}\n",
                "t.yaml:5:5: missing key 'size-total' in traffic item 1 (allreduce); expected size-total (the "
                        + "nccl-tests size S), size-per-rank, or size (= size-total)");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: allgather, ranks: 0-3, size: 1MB, size-per-rank: 1KB}\n",
                "t.yaml:5:61: both size and size-per-rank are given; expected exactly one of size-total (the "
                        + "nccl-tests size), size-per-rank, or size (= size-total)");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: allgather, ranks: 0-3, size: 1MB, root: 1}\n",
                "t.yaml:5:52: AllGather has no root; expected no root key");
    }

    @Test
    void shouldReportBadAlgorithmsMatricesSkewsAndQueuePairs() {
        assertError(HEAD + TOPO + "traffic:\n  - {kind: allgather, ranks: 0-2, size: 3KB, algorithm: halving-doubling}\n",
                "t.yaml:5:57: AllGather halving-doubling needs a power-of-two number of ranks, got 3; expected 2, 4,"
                        + " 8, ... ranks, or algorithm ring");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: allgather, ranks: 0-3, size: 4KB, algorithm: tree}\n",
                "t.yaml:5:57: 'tree' is not an algorithm of AllGather; expected one of: ring, halving-doubling,"
                        + " hierarchical");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: alltoallv, ranks: 0-1, matrix: [[0, 1KB], [2KB]]}\n",
                "t.yaml:5:54: matrix row 2 has 1 sizes; expected 2 (one per rank)");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: alltoallv, ranks: 0-2, matrix: [[0, 1KB, 0], [2KB, 0, 0]]}\n",
                "t.yaml:5:43: matrix has 2 rows; expected 3 rows of 3 sizes (row i: the bytes rank i sends to each "
                        + "rank, itself included)");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: alltoallv, ranks: 0-1, matrix: [[0, 1KB], [1KB, 0]], size: 1MB}\n",
                "t.yaml:5:71: an AlltoAllv with a matrix takes its sizes from the matrix; expected no size");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: alltoallv, ranks: 0-3, size: 1MB, skew: {zipf: 1.2, hot: 3}}\n",
                "t.yaml:5:64: unknown key 'hot' in skew; expected one of: zipf, seed");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: alltoallv, ranks: 0-3, size: 1MB, skew: {zipf: -1}}\n",
                "t.yaml:5:59: zipf -1 is out of range; expected a number in 0..10 (e.g. 0.2 or 1/256)");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: alltoall, ranks: 0-3, size: 1MB, skew: {zipf: 1}}\n",
                "t.yaml:5:45: unknown key 'skew' in traffic item 1 (alltoall); expected one of: kind, ranks, size, "
                        + "size-total, size-per-rank, start, algorithm, channels, qps-per-connection, root, iterations,"
                        + " dscp");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: allreduce, ranks: 0-3, size: 1MB, qps-per-connection: 0}\n",
                "t.yaml:5:66: qps-per-connection 0 is out of range; expected a whole number in 1..128");
        assertError(HEAD + TOPO + "traffic:\n  - {kind: sendrecv, ranks: 0-3, size: 1MB, algorithm: ring}\n",
                "t.yaml:5:56: 'ring' is not an algorithm of SendRecv; expected direct");
    }

    @Test
    void shouldRefuseALinkTakenDownTwiceWithoutALinkUpInBetween() {
        // Two outages of leaf0 - spine0 that overlap (the second link-down comes while the link is still down) were
        // accepted: the run changed nothing at the second and ended the outage at the only link-up.
        String fabric = HEAD + "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps}}\n"
                + FLOW + "events:\n";
        assertError(fabric
                + "  - {kind: link-down, a: leaf0, b: spine0, at: 50us}\n"
                + "  - {kind: link-down, a: spine0, b: leaf0, at: 80us}\n"
                + "  - {kind: link-up, a: leaf0, b: spine0, at: 100us}\n",
                "t.yaml:8:12: link-down of leaf0 - spine0 at 80us while it is already down (link-down at 50us on"
                        + " line 7, no link-up of it in between); expected one link-down per outage, each followed by a"
                        + " link-up before the next");
        // The order that counts is the time: the later line is the earlier event.
        assertError(fabric
                + "  - {kind: link-down, a: leaf0, b: spine0, at: 50us}\n"
                + "  - {kind: link-up, a: leaf0, b: spine0, at: 100us}\n"
                + "  - {kind: link-down, a: leaf0, b: spine0, at: 70us}\n",
                "t.yaml:9:12: link-down of leaf0 - spine0 at 70us while it is already down (link-down at 50us on"
                        + " line 7, no link-up of it in between); expected one link-down per outage, each followed by a"
                        + " link-up before the next");
        assertError(fabric
                + "  - {kind: link-down, a: leaf0, b: spine0, at: 50us}\n"
                + "  - {kind: link-down, a: leaf0, b: spine0, at: 50us}\n",
                "t.yaml:8:12: link-down of leaf0 - spine0 at 50us while it is already down (link-down at 50us on"
                        + " line 7, no link-up of it in between); expected one link-down per outage, each followed by a"
                        + " link-up before the next");
        assertError(fabric + "  - {kind: link-up, a: leaf0, b: spine0, at: 50us}\n",
                "t.yaml:7:12: link-up of leaf0 - spine0 at 50us while it is up (no link-down of it before, or it is"
                        + " already back up); expected a link-up only after a link-down of the same link");
    }

    @Test
    void shouldAcceptOutagesOfALinkOneAfterTheOtherAndOfOtherLinksAtOnce() throws Exception {
        var config = reader.read(HEAD + "topology: {kind: leaf-spine, leaves: 2, spines: 2, hosts-per-leaf: 2,"
                + " link: {rate: 100Gbps}}\n" + FLOW + "events:\n"
                + "  - {kind: link-down, a: leaf0, b: spine0, at: 50us}\n"
                + "  - {kind: link-down, a: leaf0, b: spine1, at: 60us}\n"
                + "  - {kind: link-up, a: leaf0, b: spine0, at: 100us}\n"
                + "  - {kind: link-down, a: leaf0, b: spine0, at: 100us}\n"
                + "  - {kind: link-up, a: spine0, b: leaf0, at: 200us}\n", "t.yaml", dir);
        assertThat(config.linkEvents()).hasSize(5);
    }
}
