package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import rocelab.fabric.probe.PortCounter;
import rocelab.observe.RunResult;
import rocelab.scenario.lint.Lint;

class FabricVariantsTest {
    private static final String ROCE = """
            name: v
            fabric: {mode: roce-lossless, mtu: 2048, vlan: true}
            topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
            switch: {pfc: {threshold: static, xoff: 60KB, xon: 40KB}}
            nic: {cc: dcqcn}
            traffic:
              - {kind: incast, senders: 1-3, receiver: 0, size: 100KB}
            """;

    @Test
    void shouldKeepTheWorkloadAndGiveEachFabricItsOwnFlowAndCongestionControl() {
        ScenarioConfig roce = Scenarios.parse(ROCE);
        ScenarioConfig ib = FabricVariants.inMode(roce, FabricMode.INFINIBAND);
        assertThat(ib.mode()).isEqualTo(FabricMode.INFINIBAND);
        assertThat(ib.congestion().name()).isEqualTo("ib-cc");
        assertThat(ib.infiniband().fecn()).as("IB CC needs its switches to mark").isNotNull();
        assertThat(ib.vlanTagged()).isFalse();
        assertThat(ib.pfc().enabled()).isFalse();
        assertThat(ib.traffic()).isEqualTo(roce.traffic());
        assertThat(ib.nic()).isEqualTo(roce.nic());
        ScenarioConfig lossy = FabricVariants.inMode(roce, FabricMode.ROCE_LOSSY);
        assertThat(lossy.pfc().enabled()).isFalse();
        assertThat(lossy.congestion()).isEqualTo(roce.congestion());
        assertThat(lossy.vlanTagged()).isTrue();
        assertThat(FabricVariants.inMode(roce, FabricMode.ROCE_LOSSLESS)).isSameAs(roce);
        ScenarioConfig back = FabricVariants.inMode(ib, FabricMode.ROCE_LOSSLESS);
        assertThat(back.congestion().name()).isEqualTo("dcqcn");
        assertThat(back.congestion().profile()).isEqualTo("hpcc-ns3");
        assertThat(back.pfc().enabled()).isTrue();
        assertThat(Simulation.assemble(ib).scenarioHash()).isNotEqualTo(Simulation.assemble(roce).scenarioHash());
        ScenarioConfig none = FabricVariants.inMode(Scenarios.parse(ROCE.replace("cc: dcqcn", "cc: none")),
                FabricMode.INFINIBAND);
        assertThat(none.congestion().name()).isEqualTo("none");
        assertThat(none.infiniband().fecn()).isNull();
    }

    /**
     * A RoCE scenario whose RNICs send data not ECN-capable ({@code nic.ecn: false}) still has FECN marks on
     * InfiniBand, where every data packet may carry one: ib-cc, said to take DCQCN's role, had no mark to react to
     * (an audit's incast: 0 FECN marks).
     */
    @Test
    void shouldLetInfinibandMarkWhatRoceSentNotEcnCapable() {
        String notEct = ROCE.replace("nic: {cc: dcqcn}", "nic: {cc: dcqcn, ecn: false}")
                + "nics: [{hosts: 1, ecn: false}]\n";
        ScenarioConfig roce = Scenarios.parse(notEct);
        assertThat(roce.nic().ecnCapable()).isFalse();
        ScenarioConfig ib = FabricVariants.inMode(roce, FabricMode.INFINIBAND);
        assertThat(ib.nic().ecnCapable()).isTrue();
        assertThat(ib.devices().nics()).allSatisfy(n -> assertThat(n.parameters().ecnCapable()).isTrue());
        RunResult r = Simulation.assemble(ib).run(ProgressListener.NONE);
        long fecn = 0;
        for (int s = 0; s < r.network().switchCount(); s++) {
            for (int p = 0; p < r.network().switchAt(s).portCount(); p++) {
                fecn += r.network().switchAt(s).port(p).counter(PortCounter.ECN_MARKED);
            }
        }
        assertThat(fecn).as("FECN marks of the 3-to-1 incast").isPositive();
        ScenarioConfig lossy = FabricVariants.inMode(roce, FabricMode.ROCE_LOSSY);
        assertThat(lossy.nic().ecnCapable()).isFalse();
    }

    /**
     * A variant that gains PFC reserves the headroom a scenario stating that fabric reserves, in bytes: the variant
     * kept -1 ("auto"), which the fabric computed but the lint read as it stood (an audit's InfiniBand job compared
     * lossless: "L3 error: each of leaf0, spine0 and leaf1 reserves -1 B of headroom").
     */
    @Test
    void shouldReserveTheHeadroomOfAScenarioThatStatesTheFabric() {
        String lossless = ROCE.replace("switch: {pfc: {threshold: static, xoff: 60KB, xon: 40KB}}\n", "");
        ScenarioConfig fromLossy = FabricVariants.inMode(
                Scenarios.parse(lossless.replace("roce-lossless", "roce-lossy")), FabricMode.ROCE_LOSSLESS);
        long[] stated = Scenarios.parse(lossless).devices().switches().get(0).headroomByPort();
        assertThat(Arrays.stream(stated).min().orElseThrow()).isPositive();
        assertThat(fromLossy.devices().switches().get(0).headroomByPort()).containsExactly(stated);
        ScenarioConfig ib = FabricVariants.inMode(Scenarios.parse(lossless), FabricMode.INFINIBAND);
        assertThat(ib.devices().switches().get(0).headroomByPort()).containsOnly(0L);
        ScenarioConfig fromIb = FabricVariants.inMode(ib, FabricMode.ROCE_LOSSLESS);
        assertThat(fromIb.devices().switches().get(0).headroomByPort()).containsExactly(
                Scenarios.parse(lossless.replace(", vlan: true", "")).devices().switches().get(0).headroomByPort());
        assertThat(Lint.check(fromIb).of("L3")).isEmpty();
        assertThat(Lint.check(fromLossy).of("L3")).isEmpty();
    }

    @Test
    void shouldSayWhoseBuffersEachFabricHad() {
        ScenarioConfig roce = Scenarios.parse(ROCE.replace("switch: {", "switch: {buffer: 4MB, "));
        ScenarioConfig ib = FabricVariants.inMode(roce, FabricMode.INFINIBAND);
        assertThat(FabricVariants.buffers(roce, roce)).isEqualTo("4,000,000 B shared by the ports of each switch");
        assertThat(FabricVariants.buffers(roce, ib)).isEqualTo("65,536 B per switch input port and lane, 65,536 B"
                + " per HCA lane (fabric.infiniband's defaults, which a roce-lossless scenario cannot state)");
        ScenarioConfig ibFile = Scenarios.parse("""
                name: n
                fabric: {mode: infiniband, infiniband: {vl-buffer: 32KiB}}
                topology: {kind: single-switch, hosts: 2, link: {rate: 100Gbps, delay: 1us}}
                traffic: [{kind: flow, src: 0, dst: 1, size: 10KB}]
                """);
        assertThat(FabricVariants.buffers(ibFile, ibFile)).isEqualTo("32,768 B per switch input port and lane,"
                + " 65,536 B per HCA lane");
        assertThat(FabricVariants.buffers(ibFile, FabricVariants.inMode(ibFile, FabricMode.ROCE_LOSSY))).isEqualTo(
                "32,000,000 B shared by the ports of each switch (switch.buffer's default, which an infiniband"
                        + " scenario cannot state)");
    }

    @Test
    void shouldKeepThePayloadASwitchPortLetsThrough() {
        assertThat(FabricVariants.switchMtu(9100, true)).isEqualTo(4096);
        assertThat(FabricVariants.switchMtu(4156, true)).isEqualTo(4096);
        assertThat(FabricVariants.switchMtu(4155, true)).isEqualTo(2048);
        assertThat(FabricVariants.switchMtu(1500, true)).isEqualTo(1024);
        assertThat(FabricVariants.switchMtu(576, true)).isEqualTo(512);
        assertThat(FabricVariants.switchMtu(2048, false)).isEqualTo(2108);
        assertThat(FabricVariants.switchMtu(0, true)).isZero();
        assertThat(FabricVariants.switchMtu(0, false)).isZero();
        ScenarioConfig jumbo = Scenarios.parse(ROCE.replace("switch: {", "switch: {mtu: 9100, "));
        ScenarioConfig ib = FabricVariants.inMode(jumbo, FabricMode.INFINIBAND);
        assertThat(ib.devices().switches().get(0).mtuByPort()).containsOnly(4096);
        assertThat(FabricVariants.inMode(ib, FabricMode.ROCE_LOSSY).devices().switches().get(0).mtuByPort())
                .containsOnly(4156);
        assertThat(FabricVariants.inMode(jumbo, FabricMode.ROCE_LOSSY).devices().switches().get(0).mtuByPort())
                .as("RoCE to RoCE keeps it").containsOnly(9100);
    }

    @Test
    void shouldRefuseAnMtuInfinibandDoesNotHave() {
        ScenarioConfig jumbo = Scenarios.parse(ROCE.replace("mtu: 2048", "mtu: 9000"));
        assertThatThrownBy(() -> FabricVariants.inMode(jumbo, FabricMode.INFINIBAND))
                .hasMessageContaining("above the largest InfiniBand path MTU");
    }

    @Test
    void shouldRefuseToMovePauseStormsOffPfc() {
        ScenarioConfig storm = Scenarios.parse(ROCE + "faults: [{kind: pause-storm, host: 0, duration: 10us}]\n");
        assertThatThrownBy(() -> FabricVariants.inMode(storm, FabricMode.INFINIBAND))
                .hasMessageContaining("pause storms");
    }
}
