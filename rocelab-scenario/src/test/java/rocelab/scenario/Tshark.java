package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Runs tshark on a capture for the pcap tests: its non-blank output lines; the test is skipped without tshark. */
final class Tshark {
    private Tshark() {}

    static List<String> read(Path pcap, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-r", pcap.toString()));
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            Assumptions.abort("tshark is not installed (.ci/run installs it): " + e.getMessage());
            return List.of();
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return out.lines().filter(l -> !l.isBlank()).toList();
    }
}
