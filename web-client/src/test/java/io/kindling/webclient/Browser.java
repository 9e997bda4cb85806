package io.kindling.webclient;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;

import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * One headless Chromium (Debian's, through its chromedriver) at a phone's width (or a
 * laptop's, for the operators' console), with its own profile: two of them are two people
 * who share nothing, not even storage.
 */
final class Browser implements AutoCloseable {

	static final Duration WAIT = Duration.ofSeconds(40);

	private final ChromeDriver driver;

	private Browser(ChromeDriver driver) {
		this.driver = driver;
	}

	static Browser start() {
		ChromeOptions options = options();
		// an iPhone-sized viewport: the page must work at 390 px
		options.setExperimentalOption("mobileEmulation",
				Map.of("deviceMetrics", Map.of("width", 390, "height", 844, "pixelRatio", 2)));
		return start(options);
	}

	/** A laptop's window, for the operators' console, a desk page. */
	static Browser startDesk() {
		ChromeOptions options = options();
		options.addArguments("--window-size=1280,1100");
		return start(options);
	}

	private static ChromeOptions options() {
		ChromeOptions options = new ChromeOptions();
		options.setBinary("/usr/bin/chromium");
		options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking");
		return options;
	}

	private static Browser start(ChromeOptions options) {
		LoggingPreferences logs = new LoggingPreferences();
		logs.enable(LogType.BROWSER, Level.ALL);
		options.setCapability(ChromeOptions.LOGGING_PREFS, logs);
		ChromeDriverService service = new ChromeDriverService.Builder()
			.usingDriverExecutable(new File("/usr/bin/chromedriver"))
			.usingAnyFreePort()
			.build();
		return new Browser(new ChromeDriver(service, options));
	}

	void open(String url) {
		this.driver.get(url);
		waitFor(By.cssSelector("body[data-ready='true']"));
	}

	WebElement waitFor(By locator) {
		return new WebDriverWait(this.driver, WAIT).until(ExpectedConditions.visibilityOfElementLocated(locator));
	}

	/** Waits for an element that may be hidden (a data attribute, a dialog's state). */
	WebElement waitForPresent(By locator) {
		return new WebDriverWait(this.driver, WAIT).until(ExpectedConditions.presenceOfElementLocated(locator));
	}

	void click(By locator) {
		new WebDriverWait(this.driver, WAIT).until(ExpectedConditions.elementToBeClickable(locator)).click();
	}

	/** Types into a field and submits its form, as a person pressing Enter. */
	void say(By field, String text) {
		WebElement input = waitFor(field);
		input.clear();
		input.sendKeys(text);
		input.submit();
	}

	ChromeDriver driver() {
		return this.driver;
	}

	WebElement find(By locator) {
		return this.driver.findElement(locator);
	}

	List<WebElement> findAll(By locator) {
		return this.driver.findElements(locator);
	}

	/** Errors the page logged or the browser logged for it (failed loads included). */
	List<String> consoleErrors() {
		return this.driver.manage()
			.logs()
			.get(LogType.BROWSER)
			.getAll()
			.stream()
			.filter((entry) -> entry.getLevel().intValue() >= Level.SEVERE.intValue())
			.map(LogEntry::toString)
			.toList();
	}

	/**
	 * The viewport as a PNG into {@code target/screenshots}, and into {@code dir} when
	 * given.
	 */
	void screenshot(String name, String dir) throws IOException {
		byte[] png = this.driver.getScreenshotAs(OutputType.BYTES);
		Path target = Path.of("target", "screenshots");
		Files.createDirectories(target);
		Files.write(target.resolve(name + ".png"), png);
		if (!dir.isBlank()) {
			Files.createDirectories(Path.of(dir));
			Files.write(Path.of(dir, name + ".png"), png);
		}
	}

	@Override
	public void close() {
		this.driver.quit();
	}

}
