# templates/: HTML templates, installed as data
