package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.fabric.nic.NicParameters;
import rocelab.fabric.port.SchedulerKind;
import rocelab.fabric.switching.EcmpHash;
import rocelab.fabric.switching.LoadBalancing;
import rocelab.fabric.switching.SwitchParameters;
import rocelab.fabric.topology.CustomTopologySpec;
import rocelab.fabric.topology.CustomTopologySpec.CustomLink;
import rocelab.fabric.topology.FatTreeSpec;
import rocelab.fabric.topology.LeafSpineSpec;
import rocelab.fabric.topology.LinkParameters;
import rocelab.fabric.topology.RailOptimizedSpec;
import rocelab.fabric.topology.SingleSwitchSpec;
import rocelab.scenario.FabricMode;
import rocelab.scenario.ScenarioConfig;
import rocelab.workload.traffic.AllToAllTraffic;
import rocelab.workload.traffic.FlowListTraffic;
import rocelab.workload.traffic.FlowSpec;
import rocelab.workload.traffic.IncastTraffic;
import rocelab.workload.traffic.PermutationTraffic;
import rocelab.workload.traffic.SingleFlowTraffic;

class ScenarioReaderTest {
    private static final long G = 1_000_000_000L;
    private static final LinkParameters L100 = new LinkParameters(100 * G, 1_000_000L);

    private final ScenarioReader reader = new ScenarioReader();

    private ScenarioConfig read(String yaml) throws ScenarioException {
        return reader.read(yaml, "t.yaml", Path.of("."));
    }

    @Test
    void shouldReadEverySettingWhenSingleSwitchScenarioIsComplete() throws Exception {
        ScenarioConfig c = read("""
                name: incast-16to1
                seed: 42
                fabric: {mode: roce-lossy, mtu: 1000, vlan: true}
                topology: {kind: single-switch, hosts: 17, link: {rate: 100Gbps, delay: 1.5us}}
                switch:
                  buffer: 4MiB
                  forwarding-latency: 400ns
                  dscp-to-tc: {26: 5, 48: 6, 0: 1}
                  scheduler: {kind: strict, weights: [1, 2, 3, 4, 5, 6, 7, 8], strict: [7, 5]}
                  ecmp: {mode: spray, hash: murmur3, seed: 99}
                nic: {cc: none, ack-every: 4, timeout: 18, retry-count: 3, dscp: 24, priority: 5, ecn: false}
                traffic:
                  - kind: incast
                    senders: 1-16
                    receiver: 0
                    size: 1000000B
                    start: 0us
                  - {kind: flow, src: 3, dst: 5, size: 10MiB, start: 5us}
                run: {stop-at: 10ms}
                """);
        assertThat(c.name()).isEqualTo("incast-16to1");
        assertThat(c.seed()).isEqualTo(42);
        assertThat(c.mode()).isEqualTo(FabricMode.ROCE_LOSSY);
        assertThat(c.vlanTagged()).isTrue();
        assertThat(c.topology()).isEqualTo(new SingleSwitchSpec(17, new LinkParameters(100 * G, 1_500_000L)));
        int[] map = SwitchParameters.classSelectorMap();
        map[26] = 5;
        map[48] = 6;
        map[0] = 1;
        assertThat(c.switches()).isEqualTo(new SwitchParameters(4L << 20, 400_000L, map, SchedulerKind.STRICT,
                new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 1 << 7 | 1 << 5, LoadBalancing.SPRAY, EcmpHash.MURMUR3, 99L));
        assertThat(c.nic()).isEqualTo(new NicParameters(1000, 4, 18, 3, 24, 5, false));
        assertThat(c.congestion().name()).isEqualTo("none");
        IncastTraffic incast = (IncastTraffic) c.traffic().get(0);
        assertThat(incast.senders()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
        assertThat(incast.receiver()).isZero();
        assertThat(incast.sizeBytes()).isEqualTo(1_000_000L);
        assertThat(incast.startPs()).isZero();
        assertThat(c.traffic().get(1)).isEqualTo(new SingleFlowTraffic(3, 5, 10L << 20, 5_000_000L));
        assertThat(c.stopAtPs()).isEqualTo(10_000_000_000L);
        assertThat(c.source()).isNull();
    }

    @Test
    void shouldApplyDefaultsWhenOptionalSectionsAreAbsent() throws Exception {
        ScenarioConfig c = read("""
                name: minimal
                fabric: {mode: roce-lossy}
                topology: {kind: single-switch, hosts: 2, link: {rate: 25Gbps}}
                traffic: [{kind: flow, src: 0, dst: 1, size: 4096}]
                """);
        assertThat(c.seed()).isEqualTo(1);
        assertThat(c.vlanTagged()).isFalse();
        assertThat(c.topology()).isEqualTo(new SingleSwitchSpec(2, new LinkParameters(25 * G, 1_000_000L)));
        assertThat(c.switches()).isEqualTo(SwitchParameters.defaults());
        assertThat(c.switches().ecmpSeed()).isNull();
        assertThat(c.nic()).isEqualTo(NicParameters.defaults(4096));
        assertThat(c.congestion().name()).isEqualTo("none");
        assertThat(c.traffic()).containsExactly(new SingleFlowTraffic(0, 1, 4096, 0));
        assertThat(c.stopAtPs()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void shouldReadLeafSpineWhenUplinkAndParallelUplinksAreGiven() throws Exception {
        ScenarioConfig c = read("""
                name: ls
                fabric: {mode: roce-lossy}
                topology:
                  kind: leaf-spine
                  leaves: 16
                  spines: 8
                  hosts-per-leaf: 8
                  parallel-uplinks: 2
                  link: {rate: 100Gbps, delay: 1us}
                  uplink: {rate: 400Gbps, delay: 2us}
                traffic:
                  - {kind: permutation, size: 1MB, start: 0}
                """);
        assertThat(c.topology()).isEqualTo(new LeafSpineSpec(16, 8, 8, 2, L100,
                new LinkParameters(400 * G, 2_000_000L)));
        assertThat(c.topology().hostCount()).isEqualTo(128);
        assertThat(c.traffic()).containsExactly(new PermutationTraffic(1_000_000L, 0L));
    }

    @Test
    void shouldUseLinkForUplinkWhenLeafSpineHasNoUplink() throws Exception {
        ScenarioConfig c = read("""
                name: ls
                fabric: {mode: roce-lossy}
                topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 2, link: {rate: 100Gbps}}
                traffic: [{kind: all-to-all, size: 64KiB}]
                """);
        assertThat(c.topology()).isEqualTo(new LeafSpineSpec(2, 1, 2, 1, L100, L100));
    }

    @Test
    void shouldReadFatTreeWhenUplinkDefaultsToLink() throws Exception {
        ScenarioConfig c = read("""
                name: ft
                fabric: {mode: roce-lossy}
                topology: {kind: fat-tree, k: 4, link: {rate: 100Gbps, delay: 1us}}
                traffic:
                  - {kind: all-to-all, size: 64KiB, start: 2.5ms}
                """);
        assertThat(c.topology()).isEqualTo(new FatTreeSpec(4, L100, L100));
        assertThat(c.traffic()).containsExactly(new AllToAllTraffic(65_536L, 2_500_000_000L));
    }

    @Test
    void shouldReadRailOptimizedWhenSendersAreAYamlList() throws Exception {
        ScenarioConfig c = read("""
                name: rails
                fabric: {mode: roce-lossy}
                topology:
                  kind: rail-optimized
                  servers: 4
                  gpus-per-server: 8
                  spines: 2
                  link: {rate: 400Gbps, delay: 500ns}
                  uplink: {rate: 800Gbps}
                traffic:
                  - {kind: incast, senders: [9, 17, 25], receiver: 1, size: 2MB}
                """);
        assertThat(c.topology()).isEqualTo(new RailOptimizedSpec(4, 8, 2, new LinkParameters(400 * G, 500_000L),
                new LinkParameters(800 * G, 1_000_000L)));
        IncastTraffic incast = (IncastTraffic) c.traffic().get(0);
        assertThat(incast.senders()).containsExactly(9, 17, 25);
        assertThat(incast.receiver()).isEqualTo(1);
    }

    @Test
    void shouldExpandSendersWhenRangesAndSinglesAreMixed() throws Exception {
        ScenarioConfig c = read("""
                name: mix
                fabric: {mode: roce-lossy}
                topology: {kind: single-switch, hosts: 12, link: {rate: 100Gbps}}
                traffic:
                  - {kind: incast, senders: "1-4,7, 9-10", receiver: 0, size: 1MB}
                  - {kind: incast, senders: 11, receiver: 0, size: 1MB}
                """);
        assertThat(((IncastTraffic) c.traffic().get(0)).senders()).containsExactly(1, 2, 3, 4, 7, 9, 10);
        assertThat(((IncastTraffic) c.traffic().get(1)).senders()).containsExactly(11);
    }

    @Test
    void shouldReadCustomTopologyAndCsvFlowsWhenReadFromFile() throws Exception {
        Path file = resource("custom-csv.yaml");
        ScenarioConfig c = reader.read(file);
        assertThat(c.name()).isEqualTo("custom.csv_1");
        assertThat(c.seed()).isEqualTo(-3);
        assertThat(c.vlanTagged()).isTrue();
        assertThat(c.nic().mtuBytes()).isEqualTo(1024);
        assertThat(c.source()).isEqualTo(file);
        assertThat(c.topology()).isEqualTo(new CustomTopologySpec(4, List.of("tor0", "tor1", "spine0"), List.of(
                new CustomLink("h0", "tor0", L100),
                new CustomLink("h1", "tor0", L100),
                new CustomLink("tor1", "h2", new LinkParameters(100 * G, 2_000_000L)),
                new CustomLink("h3", "tor1", new LinkParameters(25 * G, 1_000_000L)),
                new CustomLink("tor0", "spine0", new LinkParameters(400 * G, 500_000L)),
                new CustomLink("spine0", "tor1", new LinkParameters(400 * G, 1_000_000L)))));
        assertThat(c.traffic()).containsExactly(new FlowListTraffic("flows/four.csv", List.of(
                new FlowSpec(0, 3, 1_000_000L, 0L),
                new FlowSpec(1, 2, 4096L, 1_500_000L),
                new FlowSpec(3, 0, 1L, 2_000_000_000L))));
    }

    @Test
    void shouldUseDefaultDelayWhenCustomLinkHasRateAndNoDefaultLink() throws Exception {
        ScenarioConfig c = read("""
                name: c
                fabric: {mode: roce-lossy}
                topology:
                  kind: custom
                  hosts: 2
                  switches: [s]
                  links: [{a: h0, b: s, rate: 10Gbps}, {a: s, b: h1, rate: 10Gbps, delay: 0}]
                traffic: [{kind: flow, src: 0, dst: 1, size: 1B}]
                """);
        CustomTopologySpec t = (CustomTopologySpec) c.topology();
        assertThat(t.links()).extracting(CustomLink::parameters).containsExactly(
                new LinkParameters(10 * G, 1_000_000L), new LinkParameters(10 * G, 0L));
    }

    @Test
    void shouldReadBuiltInDemoWhenAsked() {
        ScenarioConfig c = reader.readDemo();
        assertThat(c.source()).isNull();
        assertThat(c.mode()).isEqualTo(FabricMode.ROCE_LOSSLESS);
        assertThat(c.topology()).isInstanceOf(LeafSpineSpec.class);
        assertThat(c.topology().hostCount()).isEqualTo(16);
        assertThat(c.switches().bufferBytes()).isEqualTo(16_000_000L);
        assertThat(c.pfc().isLossless(3)).isTrue();
        assertThat(c.congestion().name()).isEqualTo("dcqcn");
        assertThat(c.nic().timeoutExponent()).isEqualTo(14);
        long flows = c.traffic().stream().mapToLong(t -> t.expand(16, new SplittableRandom(1)).size()).sum();
        assertThat(flows).isEqualTo(6);
    }

    @Test
    void shouldGiveSameCanonicalTextWhenInputsMeanTheSame() throws Exception {
        String a = "name: x\nfabric: {mode: roce-lossy}\ntopology: {kind: single-switch, hosts: 3, link: {rate: "
                + "100Gbps}}\ntraffic: [{kind: flow, src: 0, dst: 1, size: 1MB}]\n";
        String b = "# same scenario, other spelling\nname: x\nseed: 1\nfabric: {mtu: 4KiB, mode: roce-lossy}\n"
                + "topology: {kind: single-switch, hosts: 3, link: {rate: 0.1Tbps, delay: 1000ns}}\n"
                + "traffic: [{kind: flow, src: 0, dst: 1, size: 1000000, start: 0}]\n";
        assertThat(read(a).canonicalText()).isEqualTo(read(a).canonicalText()).isEqualTo(read(b).canonicalText());
        assertThat(read(a.replace("size: 1MB", "size: 2MB")).canonicalText()).isNotEqualTo(read(a).canonicalText());
        assertThat(read(a.replace("hosts: 3", "hosts: 4")).canonicalText()).isNotEqualTo(read(a).canonicalText());
        assertThat(read("seed: 2\n" + a).canonicalText()).isNotEqualTo(read(a).canonicalText());
    }

    @Test
    void shouldChangeCanonicalTextWhenCsvContentChanges(@TempDir Path dir) throws Exception {
        String yaml = "name: x\nfabric: {mode: roce-lossy}\ntopology: {kind: single-switch, hosts: 3, link: {rate: "
                + "100Gbps}}\ntraffic: [{kind: flows-csv, file: f.csv}]\n";
        Files.writeString(dir.resolve("f.csv"), "src_host,dst_host,size_bytes,start_ns\n0,1,100,0\n");
        String first = reader.read(yaml, "x.yaml", dir).canonicalText();
        assertThat(reader.read(yaml, "x.yaml", dir).canonicalText()).isEqualTo(first);
        Files.writeString(dir.resolve("f.csv"), "src_host,dst_host,size_bytes,start_ns\n0,1,101,0\n");
        assertThat(reader.read(yaml, "x.yaml", dir).canonicalText()).isNotEqualTo(first);
    }

    static Path resource(String name) throws URISyntaxException {
        return Path.of(ScenarioReaderTest.class.getResource("/read/" + name).toURI());
    }
}
