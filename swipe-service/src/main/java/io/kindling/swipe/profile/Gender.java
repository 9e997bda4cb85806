package io.kindling.swipe.profile;

public enum Gender {

	WOMAN, MAN, NONBINARY

}
