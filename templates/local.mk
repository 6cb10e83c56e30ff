# templates/: HTML templates, installed as data
nobase_dist_pkgdata_DATA += templates/report.html templates/report.css templates/diff.html templates/job.html \
	templates/page-head.html templates/job-diff.html templates/hotspots.html
