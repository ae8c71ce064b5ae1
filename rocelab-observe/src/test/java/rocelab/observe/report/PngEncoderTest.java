package rocelab.observe.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class PngEncoderTest {

    /** Decoded by the JDK's own reader, every pixel is the one drawn, for flat drawings and for noise. */
    @Test
    void decodesToTheSamePixels() throws Exception {
        BufferedImage chart = new BufferedImage(900, 332, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = chart.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, 900, 332);
        g.setColor(new Color(0x1f77b4));
        g.drawLine(10, 300, 890, 20);
        g.setColor(new Color(0xd62728));
        g.fillRect(100, 100, 50, 80);
        g.drawString("Gbps 0123", 20, 20);
        g.dispose();
        BufferedImage noise = new BufferedImage(37, 11, BufferedImage.TYPE_INT_RGB);
        Random r = new Random(7);
        for (int y = 0; y < noise.getHeight(); y++) {
            for (int x = 0; x < noise.getWidth(); x++) {
                noise.setRGB(x, y, r.nextInt());
            }
        }
        BufferedImage one = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        one.setRGB(0, 0, 0x123456);
        for (BufferedImage image : new BufferedImage[] {chart, noise, one}) {
            byte[] png = PngEncoder.encode(image);
            BufferedImage back = ImageIO.read(new ByteArrayInputStream(png));
            assertThat(back.getWidth()).isEqualTo(image.getWidth());
            assertThat(back.getHeight()).isEqualTo(image.getHeight());
            for (int y = 0; y < image.getHeight(); y++) {
                for (int x = 0; x < image.getWidth(); x++) {
                    assertThat(back.getRGB(x, y) & 0xffffff).as("pixel %d,%d", x, y)
                            .isEqualTo(image.getRGB(x, y) & 0xffffff);
                }
            }
        }
    }

    /**
     * A chart compresses: under a twentieth of its raw pixels, and no more than half again of what ImageIO writes
     * (which tries every filter on every row, at twice the cost).
     */
    @Test
    void compressesAChartAboutAsWellAsImageIo() throws Exception {
        BufferedImage chart = new BufferedImage(900, 332, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = chart.createGraphics();
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, 900, 332);
        g.setColor(new Color(0x1f77b4));
        Random r = new Random(3);
        int y = 200;
        for (int x = 60; x < 880; x += 2) {
            int ny = Math.max(20, Math.min(300, y + r.nextInt(21) - 10));
            g.drawLine(x, y, x + 2, ny);
            y = ny;
        }
        g.dispose();
        ByteArrayOutputStream io = new ByteArrayOutputStream();
        ImageIO.write(chart, "png", io);
        int size = PngEncoder.encode(chart).length;
        assertThat(size).isLessThan(900 * 332 * 3 / 20).isLessThanOrEqualTo(io.size() * 3 / 2);
    }

    @Test
    void refusesAnImageWithAnotherLayout() {
        assertThatThrownBy(() -> PngEncoder.encode(new BufferedImage(2, 2, BufferedImage.TYPE_INT_ARGB)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TYPE_INT_RGB");
    }
}
