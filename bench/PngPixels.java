import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;

/**
 * Compares every PNG under one folder with the file of the same name under another by decoded pixels (RGB), not
 * bytes: for a change to how images are encoded. Run as a source file: {@code java bench/PngPixels.java A B}.
 * Exits 1 when an image differs or is missing.
 */
public class PngPixels {
    public static void main(String[] args) throws Exception {
        Path a = Path.of(args[0]);
        Path b = Path.of(args[1]);
        List<Path> images;
        try (Stream<Path> s = Files.walk(a)) {
            images = s.filter(p -> p.toString().endsWith(".png")).sorted().toList();
        }
        int differ = 0;
        for (Path p : images) {
            Path q = b.resolve(a.relativize(p));
            if (!Files.exists(q) || !samePixels(ImageIO.read(p.toFile()), ImageIO.read(q.toFile()))) {
                differ++;
                System.out.println("DIFFERENT: " + a.relativize(p));
            }
        }
        System.out.println(images.size() + " images compared by pixels, " + differ + " differ");
        System.exit(differ == 0 ? 0 : 1);
    }

    static boolean samePixels(BufferedImage x, BufferedImage y) {
        if (x.getWidth() != y.getWidth() || x.getHeight() != y.getHeight()) {
            return false;
        }
        for (int j = 0; j < x.getHeight(); j++) {
            for (int i = 0; i < x.getWidth(); i++) {
                if ((x.getRGB(i, j) & 0xffffff) != (y.getRGB(i, j) & 0xffffff)) {
                    return false;
                }
            }
        }
        return true;
    }
}
